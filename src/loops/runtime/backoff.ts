// Retry delays of a failing work item: exponential, capped, jittered.
//
//   failures  1     2     3     4     5      6      7+
//   delay     1 s   2 s   4 s   8 s   16 s   32 s   60 s (the cap)
//
// each shortened by up to `jitter` (20%) at random, so workers that failed together do not
// all retry in the same instant; the cap is never exceeded.

export interface BackoffSettings {
  /** Delay after the first failure. */
  baseMs: number;
  /** No delay is longer than this. */
  maxMs: number;
  /** Share of a delay taken off at random, 0..1. */
  jitter: number;
  /** Uniform in [0, 1): injected so tests are deterministic. */
  random: () => number;
}

/** Returns the default settings (1 s doubling up to 60 s, 20% jitter) with the given random source. */
export function defaultBackoff(random: () => number): BackoffSettings {
  return { baseMs: 1000, maxMs: 60_000, jitter: 0.2, random };
}

/** Returns how long to wait before retrying after the given number of consecutive failures (≥ 1). */
export function backoffDelay(failures: number, settings: BackoffSettings): number {
  const exponent = Math.max(0, Math.min(failures - 1, 30));
  const full = Math.min(settings.maxMs, settings.baseMs * 2 ** exponent);
  return Math.round(full * (1 - settings.jitter * settings.random()));
}
