// The latency of two waits in a row, each uniform over its period (a poll that may have just
// run or be about to): the quantile of the sum of two independent uniform variables, in closed
// form (the sum's density is a trapezoid).

/** Returns the q-quantile (0 < q < 1) of U(0, a) + U(0, b); a or b may be 0. */
export function uniformSumQuantile(a: number, b: number, q: number): number {
  const long = Math.max(a, b);
  const short = Math.min(a, b);
  if (long === 0) return 0;
  if (short === 0) return q * long;
  // The rising edge holds the first short / (2 long) of the mass; the plateau the middle; the
  // falling edge the same share at the end.
  const edge = short / (2 * long);
  if (q <= edge) return Math.sqrt(2 * q * long * short);
  if (q <= 1 - edge) return q * long + short / 2;
  return long + short - Math.sqrt(2 * (1 - q) * long * short);
}
