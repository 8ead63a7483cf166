import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measureExpansion } from '../../../src/core/load/measure-expansion.js';

const leaf = ['x', 'y'];
const level1 = [leaf, leaf, leaf];
const level2 = { a: level1, b: level1, c: level1 };

const rows: {
  name: string;
  given: { value: unknown; limit: number };
  want: ReturnType<typeof measureExpansion>;
}[] = [
  {
    name: 'A tree without sharing counts every map, list and scalar once.',
    given: { value: { a: [1, 2], b: { c: 'd' } }, limit: 100 },
    want: { nodes: 6, exceeded: false, shared: false },
  },
  {
    name: 'A shared subtree counts each time it is reached.',
    given: { value: level2, limit: 100 },
    // 1 map + 3 × (1 list + 3 × (1 list + 2 scalars)) = 1 + 3 × 10
    want: { nodes: 31, exceeded: false, shared: true },
  },
  {
    name: 'Sharing past the limit stops the walk and is refused.',
    given: { value: level2, limit: 20 },
    want: { nodes: 21, exceeded: true, shared: true },
  },
  {
    name: 'A large document without sharing is walked to its end and not refused.',
    given: { value: Array.from({ length: 50 }, (_, i) => i), limit: 10 },
    want: { nodes: 51, exceeded: false, shared: false },
  },
];

for (const row of rows) {
  test(row.name, () => {
    assert.deepEqual(measureExpansion(row.given.value, row.given.limit), row.want);
  });
}
