// The latency of waits in a row, each uniform over its period (a poll that may have just run or
// be about to; the render repository whose push goes out k-th of R): the quantile of the sum of
// independent uniform variables. Two waits have a closed form (the sum's density is a
// trapezoid); more are found by bisection on the sum's distribution function, which for
// U(0, a₁) + … + U(0, aₙ) is
//
//   F(x) = Σ over subsets S of the periods of (−1)^|S| · max(0, x − ΣS)ⁿ / (n! · a₁ ⋯ aₙ),
//
// symmetric about half the periods' sum (read from the nearer end, where the terms are few).

/** Returns the q-quantile (0 < q < 1) of the sum of U(0, a) for each period a; periods may be 0. */
export function uniformSumQuantile(periods: readonly number[], q: number): number {
  const waits = periods.filter((a) => a > 0);
  if (waits.length === 0) return 0;
  if (waits.length === 1) return q * waits[0]!;
  if (waits.length === 2) return twoWaits(waits[0]!, waits[1]!, q);
  const total = waits.reduce((sum, a) => sum + a, 0);
  let [low, high] = [0, total];
  for (let step = 0; step < 60; step++) {
    const mid = (low + high) / 2;
    if (sumCdf(waits, mid) < q) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

function twoWaits(a: number, b: number, q: number): number {
  const long = Math.max(a, b);
  const short = Math.min(a, b);
  // The rising edge holds the first short / (2 long) of the mass; the plateau the middle; the
  // falling edge the same share at the end.
  const edge = short / (2 * long);
  if (q <= edge) return Math.sqrt(2 * q * long * short);
  if (q <= 1 - edge) return q * long + short / 2;
  return long + short - Math.sqrt(2 * (1 - q) * long * short);
}

/** P(U(0, a₁) + … + U(0, aₙ) ≤ x), every aᵢ > 0. */
function sumCdf(waits: readonly number[], x: number): number {
  const total = waits.reduce((sum, a) => sum + a, 0);
  if (x <= 0) return 0;
  if (x >= total) return 1;
  if (x > total / 2) return 1 - sumCdf(waits, total - x);
  const n = waits.length;
  let sum = 0;
  for (let subset = 0; subset < 1 << n; subset++) {
    let shift = 0;
    let sign = 1;
    for (let i = 0; i < n; i++)
      if (subset & (1 << i)) {
        shift += waits[i]!;
        sign = -sign;
      }
    if (x > shift) sum += sign * (x - shift) ** n;
  }
  const scale = waits.reduce((product, a, i) => product * a * (i + 1), 1);
  return Math.min(1, Math.max(0, sum / scale));
}
