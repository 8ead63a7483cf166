// Runs work on many items with a bounded number in flight: the agent applies the objects of
// one kind side by side (the API server handles them independently), and `render --out` reads
// and writes its files side by side, but neither all at once.
//
// When one item fails, no further item is started, and the call settles only once every item
// already in flight has settled: work never goes on behind a caller that has returned (and
// closed what the work was using: render --out's directory handles were closed under writes
// still in flight, which then resolved their paths again, through links).

/**
 * Returns fn's results in the order of the items, running at most `limit` at a time; on a
 * failure, starts nothing more, waits for the items in flight, and throws the first error.
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const at = next++;
      try {
        results[at] = await fn(items[at]!, at);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}
