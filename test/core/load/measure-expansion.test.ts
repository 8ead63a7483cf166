import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measureExpansion } from '../../../src/core/load/measure-expansion.js';

const leaf = ['x', 'y'];
const level1 = [leaf, leaf, leaf];
const level2 = { a: level1, b: level1, c: level1 };
const long = 'z'.repeat(100);
const longs = [long, long, long, long];

const rows: {
  name: string;
  given: { value: unknown; maxNodes: number; maxBytes: number };
  want: ReturnType<typeof measureExpansion>;
}[] = [
  {
    name: 'A tree without sharing counts every map, list and scalar once, and the bytes of its keys and scalars.',
    given: { value: { a: [1, 2], b: { c: 'dé' } }, maxNodes: 100, maxBytes: 1000 },
    // keys a, b, c: 3 bytes; 1 and 2: 1 byte each; 'dé': 3 bytes (é is 2 in UTF-8)
    want: { nodes: 6, bytes: 8, exceeded: false, shared: false },
  },
  {
    name: 'A shared subtree counts each time it is reached.',
    given: { value: level2, maxNodes: 100, maxBytes: 1000 },
    // 1 map + 3 × (1 list + 3 × (1 list + 2 scalars)) = 1 + 3 × 10; bytes: 3 keys + 18 scalars
    want: { nodes: 31, bytes: 21, exceeded: false, shared: true },
  },
  {
    name: 'Sharing past the node limit stops the walk and is refused.',
    given: { value: level2, maxNodes: 20, maxBytes: 1000 },
    want: { nodes: 21, bytes: 14, exceeded: 'nodes', shared: true },
  },
  {
    name: 'A large document without sharing is walked to its end and not refused for its nodes.',
    given: { value: Array.from({ length: 50 }, (_, i) => i), maxNodes: 10, maxBytes: 1000 },
    want: { nodes: 51, bytes: 50, exceeded: false, shared: false },
  },
  {
    name: 'Few nodes that repeat one long string past the byte limit are refused.',
    given: { value: [longs, longs, longs], maxNodes: 100, maxBytes: 1000 },
    want: { nodes: 15, bytes: 1100, exceeded: 'bytes', shared: true },
  },
  {
    name: 'A string repeated past the byte limit is refused though no map or list is shared.',
    given: { value: [long, long, long], maxNodes: 100, maxBytes: 250 },
    want: { nodes: 4, bytes: 300, exceeded: 'bytes', shared: false },
  },
];

for (const row of rows) {
  test(row.name, () => {
    const { value, maxNodes, maxBytes } = row.given;
    assert.deepEqual(measureExpansion(value, { maxNodes, maxBytes }), row.want);
  });
}
