/** Returns true when `a` should come out of the heap before `b`; a strict order. */
export type GoesFirst<T> = (a: T, b: T) => boolean;

/**
 * A binary heap whose top is the item that goes first: O(n) to build, O(log n) to push, pop or
 * replace the top. With a total order (no two items tie) the items come out in one order only,
 * the order a sort by `goesFirst` gives.
 */
export class MaxHeap<T> {
  private readonly items: T[];

  /** Builds the heap from the items (the array is copied). */
  constructor(
    items: Iterable<T>,
    private readonly goesFirst: GoesFirst<T>,
  ) {
    this.items = [...items];
    for (let i = (this.items.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  /** Returns how many items the heap holds. */
  get size(): number {
    return this.items.length;
  }

  /** Returns the item that goes first without removing it, or undefined when the heap is empty. */
  peek(): T | undefined {
    return this.items[0];
  }

  /** Adds an item. */
  push(item: T): void {
    this.items.push(item);
    this.siftUp(this.items.length - 1);
  }

  /** Removes and returns the item that goes first, or undefined when the heap is empty. */
  pop(): T | undefined {
    if (this.items.length === 0) return undefined;
    const top = this.items[0] as T;
    const last = this.items.pop() as T;
    if (this.items.length > 0) {
      this.items[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** Puts an item in place of the top and returns the top it replaced (undefined when the heap
   * was empty); the item may be the top itself, changed so that it goes first no longer. */
  replaceTop(item: T): T | undefined {
    const top = this.items[0];
    this.items[0] = item;
    this.siftDown(0);
    return top;
  }

  private siftUp(at: number): void {
    const item = this.items[at] as T;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const above = this.items[parent] as T;
      if (!this.goesFirst(item, above)) break;
      this.items[at] = above;
      at = parent;
    }
    this.items[at] = item;
  }

  private siftDown(at: number): void {
    const n = this.items.length;
    const item = this.items[at] as T;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && this.goesFirst(this.items[right] as T, this.items[left] as T)) child = right;
      const below = this.items[child] as T;
      if (!this.goesFirst(below, item)) break;
      this.items[at] = below;
      at = child;
    }
    this.items[at] = item;
  }
}
