import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MaxHeap } from '../../../src/core/schedule/max-heap.js';
import { seededRandom } from '../seeded-random.js';

const larger = (a: number, b: number) => a > b;

function drain<T>(heap: MaxHeap<T>): T[] {
  const out: T[] = [];
  for (let item = heap.pop(); item !== undefined; item = heap.pop()) out.push(item);
  return out;
}

const cases: { name: string; given: number[]; want: number[] }[] = [
  { name: 'An empty heap gives nothing.', given: [], want: [] },
  { name: 'One item comes out alone.', given: [7], want: [7] },
  {
    name: 'Items in ascending order come out largest first.',
    given: [1, 2, 3, 4, 5, 6],
    want: [6, 5, 4, 3, 2, 1],
  },
  {
    name: 'Items in descending order come out largest first.',
    given: [6, 5, 4, 3, 2, 1],
    want: [6, 5, 4, 3, 2, 1],
  },
  { name: 'Repeated items all come out.', given: [2, 9, 2, 9, 2], want: [9, 9, 2, 2, 2] },
];

for (const { name, given, want } of cases) {
  test(`${name} (built at once)`, () => {
    assert.deepEqual(drain(new MaxHeap(given, larger)), want);
  });
  test(`${name} (pushed one by one)`, () => {
    const heap = new MaxHeap<number>([], larger);
    for (const item of given) heap.push(item);
    assert.equal(heap.size, given.length);
    assert.deepEqual(drain(heap), want);
  });
}

test('An empty heap peeks and pops undefined and keeps size 0.', () => {
  const heap = new MaxHeap<string>([], (a, b) => a < b);
  assert.equal(heap.peek(), undefined);
  assert.equal(heap.pop(), undefined);
  assert.equal(heap.size, 0);
});

test('Building the heap leaves the given array as it was.', () => {
  const items = [3, 1, 2];
  const heap = new MaxHeap(items, larger);
  assert.equal(heap.peek(), 3);
  heap.pop();
  assert.deepEqual(items, [3, 1, 2]);
});

test('Random pushes, pops and top replacements always leave the largest item on top.', () => {
  const random = seededRandom(7);
  for (let round = 0; round < 200; round++) {
    const start = Array.from({ length: random(40) }, () => random(50));
    const heap = new MaxHeap(start, larger);
    const model = [...start].sort((a, b) => b - a);
    for (let step = 0; step < 100; step++) {
      const op = random(3);
      if (op === 0) {
        assert.equal(heap.pop(), model.shift());
      } else if (op === 1 && model.length > 0) {
        const item = random(50);
        assert.equal(heap.replaceTop(item), model.shift());
        model.push(item);
      } else {
        const item = random(50);
        heap.push(item);
        model.push(item);
      }
      model.sort((a, b) => b - a);
      assert.equal(heap.size, model.length);
      assert.equal(heap.peek(), model[0]);
    }
  }
});

test('A top changed in place and put back with replaceTop sinks below the items that now go first.', () => {
  const items = [5, 4, 3, 2, 1].map((key) => ({ key }));
  const heap = new MaxHeap(items, (a, b) => a.key > b.key);
  const top = heap.peek()!;
  top.key = 2.5;
  assert.equal(heap.replaceTop(top), top);
  assert.deepEqual(
    drain(heap).map((item) => item.key),
    [4, 3, 2.5, 2, 1],
  );
});
