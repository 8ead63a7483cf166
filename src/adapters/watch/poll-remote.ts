// The trigger for a remote repository: call `check` every interval. Checks never overlap: the
// next one is scheduled when the last has finished, so a slow remote stretches the period
// instead of piling up requests. `trigger()` asks for a check now (a webhook arrived); asked
// during a check, it runs one more right after, never two.
//
// A remote that keeps failing is asked less often: after k failed checks in a row the next one
// waits the interval times 2^k, up to `maxBackoffMs` (default five minutes, or the interval when
// that is longer), so an outage of the Git host costs it a handful of requests, not one per
// interval. The first success goes back to the interval. A webhook still asks at once: it says
// the host is answering again.
//
//   failed checks in a row   0     1      2      3      4      5+
//   next check after (30 s)  30 s  60 s   120 s  240 s  300 s  300 s
//
// A check refused for the Git host's rate limit (RateLimited, rate-limit-gate.ts) is not a
// failure: the next check waits as long as the host asked (at least the interval), the run of
// failures is left as it was, and onError is not told (the gate logs each change of the wait).

import { RateLimitedError } from '../remote/rate-limited-error.js';

/** One-shot timers; the loops' Clock fits (adapters do not import the loops). */
export interface PollTimer {
  /** Calls `callback` once after `delayMs`; returns how to cancel it. */
  setTimer(callback: () => void, delayMs: number): () => void;
}

export interface PollRemoteOptions {
  /** Milliseconds between the end of one check and the start of the next. */
  intervalMs: number;
  /** The check, e.g. a refresh that tells the loop to look again when refs moved. */
  check: () => Promise<void>;
  /** Receives a failed check's error and when the next check runs; polling goes on. */
  onError: (error: unknown, nextCheckMs: number) => void;
  /** Check once right away (default false: first check after one interval). */
  immediately?: boolean;
  /** The longest wait after failed checks (default max(interval, 5 min)). */
  maxBackoffMs?: number;
  /** The timers (default: the process's). */
  timer?: PollTimer;
}

/** A running poller. */
export interface Poller {
  /** Asks for a check as soon as none is running. */
  trigger(): void;
  /** Stops polling; resolves once a check in progress has finished. No check starts after. */
  stop(): Promise<void>;
}

const processTimer: PollTimer = {
  setTimer: (callback, delayMs) => {
    const handle = setTimeout(callback, Math.max(0, delayMs));
    return () => clearTimeout(handle);
  },
};

/** Returns the wait before the next check after `failures` failed checks in a row. */
export function nextCheckDelay(intervalMs: number, failures: number, maxBackoffMs: number): number {
  const cap = Math.max(intervalMs, maxBackoffMs);
  return Math.min(cap, intervalMs * 2 ** Math.min(failures, 30));
}

/** Starts polling and returns how to trigger a check and how to stop. */
export function pollRemote(opts: PollRemoteOptions): Poller {
  if (!(opts.intervalMs > 0)) throw new RangeError(`intervalMs: ${opts.intervalMs}: must be positive`);
  const timer = opts.timer ?? processTimer;
  const maxBackoffMs = opts.maxBackoffMs ?? 5 * 60_000;
  let cancel: (() => void) | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let failures = 0;
  let limitedMs: number | undefined; // the wait the host asked for at the last check, if it did

  const schedule = (delayMs: number): void => {
    cancel?.();
    cancel = stopped ? undefined : timer.setTimer(run, delayMs);
  };
  const run = (): void => {
    cancel = undefined;
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    limitedMs = undefined;
    running = opts
      .check()
      .then(
        () => void (failures = 0),
        (error: unknown) => {
          if (error instanceof RateLimitedError) {
            limitedMs = Math.max(opts.intervalMs, error.waitMs);
            return;
          }
          failures++;
          opts.onError(error, again ? 0 : nextCheckDelay(opts.intervalMs, failures, maxBackoffMs));
        },
      )
      .finally(() => {
        running = undefined;
        schedule(again ? 0 : (limitedMs ?? nextCheckDelay(opts.intervalMs, failures, maxBackoffMs)));
        again = false;
      });
  };

  schedule(opts.immediately ? 0 : opts.intervalMs);
  return {
    trigger: () => schedule(0),
    stop: async () => {
      stopped = true;
      cancel?.();
      await running;
    },
  };
}
