/**
 * Returns the entries of several newest-first lists as one newest-first list. Each list keeps its
 * own order (a branch's history is its order, whatever its clocks say); at equal times the
 * earlier list goes first, so the result is deterministic.
 */
export function mergeNewestFirst<T>(lists: readonly (readonly T[])[], timeOf: (entry: T) => number): T[] {
  return [...streamNewestFirst(lists, timeOf)];
}

/**
 * Yields the entries of several newest-first streams as one newest-first stream, as mergeNewestFirst
 * orders them, taking from each stream only what is yielded (plus the one entry it holds next):
 * a reader that stops after ten entries makes each stream find at most eleven.
 */
export function* streamNewestFirst<T>(
  streams: readonly Iterable<T>[],
  timeOf: (entry: T) => number,
): Generator<T, void, undefined> {
  const iterators = streams.map((s) => s[Symbol.iterator]());
  const next = iterators.map((it) => it.next());
  for (;;) {
    let pick = -1;
    let pickTime = -Infinity;
    next.forEach((result, i) => {
      if (result.done) return;
      const time = timeOf(result.value);
      if (pick === -1 || time > pickTime) {
        pick = i;
        pickTime = time;
      }
    });
    if (pick === -1) return;
    yield next[pick]!.value as T;
    next[pick] = iterators[pick]!.next();
  }
}
