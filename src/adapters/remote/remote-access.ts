// What every exchange with the remote needs: where the mirror is, where the remote is, how to
// authenticate, which secrets to keep out of messages, and how long a request may take.
import type { RateLimitGate } from './rate-limit-gate.js';
import type { RemoteTimeouts } from './remote-timeouts.js';

export interface RemoteAccess {
  /** The mirror's git directory. */
  gitdir: string;
  /** The remote's URL, without credentials. */
  url: string;
  /** The Authorization header sent with every request, or nothing. */
  authHeaders: Record<string, string>;
  /** The token and any password, masked in every message. */
  secrets: readonly (string | undefined)[];
  /** Connect and silence limits of every request. */
  timeouts: RemoteTimeouts;
  /** Aborts every request in flight (the process is stopping). */
  signal?: AbortSignal | undefined;
  /** The repository's rate-limit gate, shared by every request of the process to it. */
  gate?: RateLimitGate | undefined;
}
