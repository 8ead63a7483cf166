// Medians and spreads of repeated timings.

/** A contender's timings over its repetitions. */
export interface Spread {
  medianMs: number;
  minMs: number;
  maxMs: number;
  runs: number;
  samplesMs: number[];
}

/** Returns the median of the numbers (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Returns the median, minimum and maximum of the samples, rounded to whole milliseconds. */
export function spread(samplesMs: readonly number[]): Spread {
  const round = (x: number) => Math.round(x);
  return {
    medianMs: round(median(samplesMs)),
    minMs: round(Math.min(...samplesMs)),
    maxMs: round(Math.max(...samplesMs)),
    runs: samplesMs.length,
    samplesMs: samplesMs.map(round),
  };
}

/** Returns `x` rounded to `digits` decimals. */
export function roundTo(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
