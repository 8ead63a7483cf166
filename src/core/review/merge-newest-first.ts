/**
 * Returns the entries of several newest-first lists as one newest-first list. Each list keeps its
 * own order (a branch's history is its order, whatever its clocks say); at equal times the
 * earlier list goes first, so the result is deterministic.
 */
export function mergeNewestFirst<T>(lists: readonly (readonly T[])[], timeOf: (entry: T) => number): T[] {
  const next = lists.map(() => 0);
  const merged: T[] = [];
  for (;;) {
    let pick = -1;
    let pickTime = -Infinity;
    lists.forEach((list, i) => {
      const entry = list[next[i]!];
      if (entry === undefined) return;
      const time = timeOf(entry);
      if (pick === -1 || time > pickTime) {
        pick = i;
        pickTime = time;
      }
    });
    if (pick === -1) return merged;
    merged.push(lists[pick]![next[pick]!]!);
    next[pick]!++;
  }
}
