// A read-only map made of another map plus a few changes, without copying the other map: a
// render or a pass that changes three files of a 2,000-file cluster costs three, not 2,000.
// Layers stack (a patch of a patch); a map is copied flat once it is deep or much changed, so
// a lookup stays cheap and a long chain of patches never builds up.

/** The most patches stacked over one flat map before a patch is made flat. */
const MAX_DEPTH = 8;

/**
 * The base map with `changes` applied (a value sets the key, undefined removes it). Iteration
 * follows the base's order, keys added by the changes merged in string order: a base sorted
 * by key gives a map sorted by key.
 */
export function patchMap<V>(
  base: ReadonlyMap<string, V>,
  changes: ReadonlyMap<string, V | undefined>,
): ReadonlyMap<string, V> {
  if (changes.size === 0) return base;
  const depth = base instanceof PatchedMap ? base.depth + 1 : 1;
  const patched = new PatchedMap(base, changes, depth);
  return depth > MAX_DEPTH || changes.size * 8 > base.size ? new Map(patched) : patched;
}

class PatchedMap<V> implements ReadonlyMap<string, V> {
  readonly size: number;
  /** Keys the changes add (not in the base), sorted. */
  private readonly added: string[];

  constructor(
    private readonly base: ReadonlyMap<string, V>,
    private readonly changes: ReadonlyMap<string, V | undefined>,
    readonly depth: number,
  ) {
    let size = base.size;
    const added: string[] = [];
    for (const [key, value] of changes) {
      const had = base.has(key);
      if (value === undefined) size -= had ? 1 : 0;
      else if (!had) {
        size++;
        added.push(key);
      }
    }
    this.size = size;
    this.added = added.sort();
  }

  get(key: string): V | undefined {
    return this.changes.has(key) ? this.changes.get(key) : this.base.get(key);
  }

  has(key: string): boolean {
    return this.changes.has(key) ? this.changes.get(key) !== undefined : this.base.has(key);
  }

  *entries(): MapIterator<[string, V]> {
    let next = 0;
    for (const [key, value] of this.base) {
      while (next < this.added.length && this.added[next]! < key) {
        const added = this.added[next++]!;
        yield [added, this.changes.get(added)!];
      }
      if (!this.changes.has(key)) yield [key, value];
      else {
        const changed = this.changes.get(key);
        if (changed !== undefined) yield [key, changed];
      }
    }
    while (next < this.added.length) {
      const added = this.added[next++]!;
      yield [added, this.changes.get(added)!];
    }
  }

  *keys(): MapIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
}
