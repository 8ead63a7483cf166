// A least-recently-used cache bounded by the bytes of what it holds, not by its entry count:
// delta bases range from a 200-byte tree to a multi-megabyte blob, so only bytes bound memory.
// A Map keeps insertion order; a hit is moved to the end, and eviction takes from the front.

/** Fixed cost counted for each entry on top of its bytes (key, Map slot, object header). */
const entryOverhead = 96;

/** An LRU cache whose total `bytes` never exceeds `maxBytes`. */
export class ByteLru<K, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>();
  private held = 0;

  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  /** Bytes the cache holds now (entries' sizes plus a fixed overhead each). */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Returns the value, marking it most recently used, or undefined. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores the value, evicting the least recently used; a value bigger than a quarter of the bound is not kept. */
  set(key: K, value: V): void {
    const bytes = this.sizeOf(value) + entryOverhead;
    this.delete(key);
    if (bytes > this.maxBytes / 4) return;
    this.entries.set(key, { value, bytes });
    this.held += bytes;
    for (const [k, e] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(k);
      this.held -= e.bytes;
    }
  }

  /** Removes the entries whose key the predicate accepts. */
  deleteWhere(predicate: (key: K) => boolean): void {
    for (const key of [...this.entries.keys()]) if (predicate(key)) this.delete(key);
  }

  private delete(key: K): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.held -= old.bytes;
  }
}
