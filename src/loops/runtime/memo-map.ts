// A cache for a long-running loop whose entries are facts that never go stale (keyed by a git
// object id, or by content): it only has to forget what is no longer used. Each `sweep` drops
// the entries neither read nor written since the previous sweep, so the cache holds what the
// last pass used and never grows with history.

/** A map that forgets, at each sweep, the entries unused since the previous one. */
export class MemoMap<K, V> {
  private entries = new Map<K, V>();
  private used = new Set<K>();

  /** Returns the value for the key, marking it used, or undefined. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) this.used.add(key);
    return value;
  }

  /** Stores the value, marked used. */
  set(key: K, value: V): void {
    this.entries.set(key, value);
    this.used.add(key);
  }

  /** Returns the number of entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** Returns every entry held, without marking any used (for the hub's persisted memo). */
  held(): IterableIterator<[K, V]> {
    return this.entries.entries();
  }

  /** Drops every entry not used since the last sweep and returns how many were dropped. */
  sweep(): number {
    let dropped = 0;
    for (const key of this.entries.keys()) {
      if (this.used.has(key)) continue;
      this.entries.delete(key);
      dropped++;
    }
    this.used = new Set();
    return dropped;
  }
}

/** Returns the cached value, computing and storing it on a miss. */
export async function memoize<K, V>(memo: MemoMap<K, V>, key: K, compute: () => Promise<V>): Promise<V> {
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const value = await compute();
  memo.set(key, value);
  return value;
}
