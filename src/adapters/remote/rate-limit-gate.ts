// A Git host's rate limit, honoured per repository: one gate per repository URL, shared by every
// request of the process to that repository (the hub's mirror, an agent's mirror, its probes and
// its pushes). An answer that says "too many requests" closes the gate until at least the time
// the server asked for; while it is closed no request to that repository is sent at all: each
// fails at once with RateLimited, naming when the gate opens, so a loop waits for that time
// instead of counting an outage. What counts as a rate-limit answer, and how long to wait:
//
//   answer                                             wait (at least 1 s), then at random up to
//   429, or 403 with X-RateLimit-Remaining: 0 or a     Retry-After (seconds or an HTTP date)
//   "rate limit" status text (GitHub's secondary       else X-RateLimit-Reset (epoch seconds)
//   limit)                                             else 60 s × 2^(limits in a row − 1), ≤ 15 min
//
//   the wait      1 s      10 s     20 s     60 s     15 min    1 h
//   jitter, ≤     2 s      2 s      2 s      6 s      90 s      6 min     (max(2 s, 10 % of it))
//
// (GitHub's REST guidance: honour retry-after, else x-ratelimit-reset, else wait a minute and
// back off exponentially.) The jitter keeps a fleet of agents throttled together from all
// coming back in the same second: those a forge refused in one second with "Retry-After: 1"
// come back spread over two (10 % of a second, the jitter until 6 December, sent them all
// back within 100 ms, to be refused again); a long wait costs at most a tenth more than asked.
// A wait is at least 1 s, so "Retry-After: 0" is no storm. A
// gate never moves its opening time earlier: two answers in flight when the limit hit do not
// shorten each other's wait. Told once (`onNotice`): the first limit of a run, each change of
// the wait's length (a server answering 429 for an hour with the same Retry-After is one line),
// and the first answer that is not a limit; never each refused request. Each rate-limit answer
// is counted (`onLimited`).
import type { IncomingHttpHeaders } from 'node:http';
import { RateLimitedError } from './rate-limited-error.js';

export interface RateLimitGatesOptions {
  /** Milliseconds since the epoch (the server's Retry-After dates and reset times are epoch times). */
  now: () => number;
  /** A number in [0, 1), for the jitter. */
  random: () => number;
  /** Told once per change of a gate: closed until a new time (`closed`), or answered again. */
  onNotice?: (notice: { closed: boolean; message: string }) => void;
  /** Told of each rate-limit answer a repository sent (the metric). */
  onLimited?: (repository: string) => void;
}

/** The gate of one repository. */
export interface RateLimitGate {
  readonly url: string;
  /** When the next request may be sent (epoch ms); 0 when the gate is open. */
  opensAt(): number;
  /**
   * Throws RateLimited when the gate is closed; a request goes out only after this passes. Returns
   * the request's ticket for `observe`.
   */
  check(): number;
  /**
   * Reads an answer's status and headers: a rate-limit answer closes the gate and is returned as
   * the RateLimited error to fail the request with; any other answer returns undefined. An answer
   * below 400 to a request sent since the last limit (its `ticket` from check) ends a run of
   * limits; one sent before it was in flight when the limit hit and says nothing of it.
   */
  observe(
    status: number,
    statusText: string,
    headers: IncomingHttpHeaders,
    ticket?: number,
  ): RateLimitedError | undefined;
}

/** Every gate of a process, one per repository URL. */
export interface RateLimitGates {
  /** Returns the gate of the repository at `url` (without credentials), made on first use. */
  gateFor(url: string): RateLimitGate;
}

const minWaitMs = 1000;
/** The least spread of the jitter: waits up to 20 s get this much, longer ones 10 % of the wait. */
const minJitterMs = 2000;
const jitterShare = 0.1;
const defaultFirstWaitMs = 60_000;
const defaultMaxWaitMs = 15 * 60_000;

/** Returns a registry of gates with the given clock, random source and hooks. */
export function rateLimitGates(opts: RateLimitGatesOptions): RateLimitGates {
  const gates = new Map<string, RateLimitGate>();
  return {
    gateFor: (url) => {
      let gate = gates.get(url);
      if (gate === undefined) gates.set(url, (gate = makeGate(url, opts)));
      return gate;
    },
  };
}

/** The process's gates when the composition root passes none: system clock, no log, no metric. */
export const processRateLimitGates: RateLimitGates = rateLimitGates({
  now: () => Date.now(),
  random: () => Math.random(),
});

function makeGate(url: string, opts: RateLimitGatesOptions): RateLimitGate {
  let openAt = 0;
  let asked = 0; // the unjittered opening time of the last wait
  let told: string | undefined; // the status and length of the wait last told, in a run of limits
  let inARow = 0;
  let limits = 0; // every rate-limit answer so far: a request's ticket is this count when it was sent
  const closedError = (status: number): RateLimitedError =>
    new RateLimitedError(
      `${url}: rate limited by the server (${status}); next request at ${new Date(openAt).toISOString()}`,
      openAt,
      status,
      Math.max(0, openAt - opts.now()),
    );
  let lastStatus = 429;
  return {
    url,
    opensAt: () => (openAt > opts.now() ? openAt : 0),
    check: () => {
      if (openAt > opts.now()) throw closedError(lastStatus);
      return limits;
    },
    observe: (status, statusText, headers, ticket = limits) => {
      if (!isRateLimitAnswer(status, statusText, headers)) {
        if (status < 400 && inARow > 0 && ticket === limits) {
          opts.onNotice?.({
            closed: false,
            message: `${url}: the server answers again after ${inARow} rate-limited answers`,
          });
          inARow = 0;
          told = undefined;
        }
        return undefined;
      }
      inARow++;
      limits++;
      lastStatus = status;
      opts.onLimited?.(url);
      const now = opts.now();
      const waitMs = Math.max(minWaitMs, askedWaitMs(headers, now) ?? exponentialWaitMs(inARow));
      const until = now + waitMs;
      if (until > asked) {
        asked = until;
        openAt = Math.max(openAt, until + Math.floor(opts.random() * jitterMsOf(waitMs)));
        const wait = `${status} ${Math.round(waitMs / 1000)}`;
        if (wait !== told) opts.onNotice?.({ closed: true, message: closedError(status).message });
        told = wait;
      }
      return closedError(status);
    },
  };
}

/** Returns whether the answer is a rate limit: 429, or a 403 that says so (GitHub's secondary limit). */
export function isRateLimitAnswer(status: number, statusText: string, headers: IncomingHttpHeaders): boolean {
  if (status === 429) return true;
  if (status !== 403) return false;
  return (
    single(headers['x-ratelimit-remaining']) === '0' ||
    headers['retry-after'] !== undefined ||
    /rate limit/i.test(statusText)
  );
}

/** Returns the wait the server asked for (Retry-After, else X-RateLimit-Reset), or undefined. */
export function askedWaitMs(headers: IncomingHttpHeaders, now: number): number | undefined {
  const retryAfter = single(headers['retry-after'])?.trim();
  if (retryAfter !== undefined && retryAfter !== '') {
    if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = single(headers['x-ratelimit-reset'])?.trim();
  if (reset !== undefined && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - now);
  return undefined;
}

/** Returns the spread of the jitter added to a wait: 10 % of it, at least 2 s. */
export function jitterMsOf(waitMs: number): number {
  return Math.max(minJitterMs, waitMs * jitterShare);
}

function exponentialWaitMs(inARow: number): number {
  return Math.min(defaultMaxWaitMs, defaultFirstWaitMs * 2 ** Math.min(inARow - 1, 20));
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
