// Runs work on many items with a bounded number in flight: the agent applies the objects of
// one kind side by side (the API server handles them independently), and `render --out` reads
// and writes its files side by side, but neither all at once.

/** Returns fn's results in the order of the items, running at most `limit` at a time. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const at = next++;
      results[at] = await fn(items[at]!, at);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
