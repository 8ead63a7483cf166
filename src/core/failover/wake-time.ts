// The wake-at times of the application failover and rebalancer steps: a decision falls due at
// a time computed from the hub's clock as it came in, never read here.

/** Returns the Date of an epoch-milliseconds time (a conversion of a given time, not a clock read). */
export function dateAt(ms: number): Date {
  // eslint-disable-next-line no-restricted-globals -- a conversion of a given time, not a clock read
  return new Date(ms);
}

/** Returns the earliest of the times (epoch ms) strictly after now, as a Date, or undefined. */
export function earliestAfter(nowMs: number, times: readonly number[]): Date | undefined {
  const due = times.filter((t) => t > nowMs);
  return due.length === 0 ? undefined : dateAt(Math.min(...due));
}
