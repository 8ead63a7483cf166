// Myers' O(ND) difference algorithm ("An O(ND) Difference Algorithm and Its Variations", 1986),
// in its linear-space form: find a point on an optimal edit path by running the greedy search
// from both ends at once until the two frontiers overlap (the "middle snake"), then solve the two
// halves the same way. Each level first strips the common prefix and suffix, which is where most
// of a rendered manifest's lines go, so the search only sees the changed middle.
//
// Sequences are arrays of integers (lines are interned to ids by the caller): comparing numbers
// is what makes the inner loops cheap.

/** One step of an edit script turning `a` into `b`. */
export type SequenceOp = 'equal' | 'delete' | 'insert';

interface Ctx {
  a: readonly number[];
  b: readonly number[];
  ops: SequenceOp[];
}

/** Returns a shortest edit script turning `a` into `b`: one op per element of either side. */
export function diffSequences(a: readonly number[], b: readonly number[]): SequenceOp[] {
  const ctx: Ctx = { a, b, ops: [] };
  diffRange(ctx, 0, a.length, 0, b.length);
  return ctx.ops;
}

function diffRange(ctx: Ctx, aLo: number, aHi: number, bLo: number, bHi: number): void {
  const { a, b, ops } = ctx;
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
    ops.push('equal');
    aLo++;
    bLo++;
  }
  let suffix = 0;
  while (aHi > aLo && bHi > bLo && a[aHi - 1] === b[bHi - 1]) {
    aHi--;
    bHi--;
    suffix++;
  }
  if (aLo === aHi) for (let i = bLo; i < bHi; i++) ops.push('insert');
  else if (bLo === bHi) for (let i = aLo; i < aHi; i++) ops.push('delete');
  else {
    const [x, y] = middlePoint(ctx, aLo, aHi, bLo, bHi);
    diffRange(ctx, aLo, aLo + x, bLo, bLo + y);
    diffRange(ctx, aLo + x, aHi, bLo + y, bHi);
  }
  for (let i = 0; i < suffix; i++) ops.push('equal');
}

/**
 * Returns a point (x, y), relative to the range, on a shortest edit path through it: where the
 * forward and the backward greedy searches first overlap. The range has no common prefix or
 * suffix, so the point is never a corner and both halves are strictly smaller.
 */
function middlePoint(ctx: Ctx, aLo: number, aHi: number, bLo: number, bHi: number): [number, number] {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const maxD = Math.ceil((n + m) / 2);
  const fwd = newFrontier(maxD, n, m, (i, j) => ctx.a[aLo + i] === ctx.b[bLo + j]);
  const bwd = newFrontier(maxD, n, m, (i, j) => ctx.a[aHi - 1 - i] === ctx.b[bHi - 1 - j]);
  const delta = n - m;
  // With an odd delta the frontiers can first meet after a forward step, else after a backward one.
  const odd = (delta & 1) !== 0;
  for (let d = 0; d <= maxD; d++) {
    for (let k = -d + fwd.skipLow; k <= d - fwd.skipHigh; k += 2) {
      const x = advance(fwd, k, d);
      if (x === -1 || !odd) continue;
      const xr = reached(bwd, delta - k);
      if (xr !== -1 && x >= n - xr) return [x, x - k];
    }
    for (let k = -d + bwd.skipLow; k <= d - bwd.skipHigh; k += 2) {
      const xr = advance(bwd, k, d);
      if (xr === -1 || odd) continue;
      const x = reached(fwd, delta - k);
      if (x !== -1 && x >= n - xr) return [x, x - (delta - k)];
    }
  }
  // Unreachable: the frontiers meet by d = ceil((n + m) / 2). Splitting anywhere stays correct.
  return [n, 0];
}

/** One greedy search: the furthest x reached on each diagonal k = x - y (-1: not yet). */
interface Frontier {
  v: Int32Array;
  offset: number;
  n: number;
  m: number;
  same: (i: number, j: number) => boolean;
  /** Diagonals at either end that ran off the grid and are no longer searched. */
  skipLow: number;
  skipHigh: number;
}

function newFrontier(maxD: number, n: number, m: number, same: Frontier['same']): Frontier {
  const offset = maxD + 1;
  const v = new Int32Array(2 * maxD + 3).fill(-1);
  v[offset + 1] = 0;
  return { v, offset, n, m, same, skipLow: 0, skipHigh: 0 };
}

function reached(f: Frontier, k: number): number {
  return f.v[f.offset + k] ?? -1;
}

/**
 * Takes one greedy step on diagonal k (one edit, then the longest run of equal elements);
 * returns the x reached, or -1 when the step left the grid (that end is searched no more).
 */
function advance(f: Frontier, k: number, d: number): number {
  const down = f.v[f.offset + k + 1] ?? -1;
  const right = f.v[f.offset + k - 1] ?? -1;
  let x = k === -d || (k !== d && right < down) ? down : right + 1;
  let y = x - k;
  while (x < f.n && y < f.m && f.same(x, y)) {
    x++;
    y++;
  }
  f.v[f.offset + k] = x;
  if (x > f.n) f.skipHigh += 2;
  else if (y > f.m) f.skipLow += 2;
  else return x;
  return -1;
}
