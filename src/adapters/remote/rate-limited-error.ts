// The error of a request the Git host refused for its rate limit, or that was never sent
// because that repository's gate is closed (rate-limit-gate.ts): not an outage, a wait.
import { RemoteError } from './remote-error.js';

/** RateLimited, with the time (epoch ms) the repository's gate opens and the wait until then. */
export class RateLimitedError extends RemoteError {
  constructor(
    message: string,
    /** When the next request to that repository may be sent, in milliseconds since the epoch. */
    readonly retryAt: number,
    /** The HTTP status of the answer that closed the gate (429 or 403). */
    readonly status: number,
    /** From when the error was made until retryAt, in milliseconds (what a loop without the clock waits). */
    readonly waitMs: number,
  ) {
    super('RateLimited', message);
  }
}
