import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planPackRollup } from '../../../src/adapters/git/plan-pack-rollup.js';

const packs = (...counts: number[]) => counts.map((objects, i) => ({ name: `p${i}`, objects }));

test('The small packs of recent passes roll up; the big first pack stays while they weigh less than half of it.', () => {
  assert.deepEqual(planPackRollup(packs(100000, 200, 200, 200), 2).sort(), ['p1', 'p2', 'p3']);
});

test('Packs that already form a geometric progression are left alone.', () => {
  assert.deepEqual(planPackRollup(packs(100000, 800, 200), 2), []);
  assert.deepEqual(planPackRollup(packs(5), 2), []);
  assert.deepEqual(planPackRollup([], 2), []);
});

test('A break at the top rolls up everything below it, and the roll-up swallows a larger pack it outweighs.', () => {
  assert.deepEqual(planPackRollup(packs(100000, 60000, 900, 50), 2).sort(), ['p0', 'p1', 'p2', 'p3']);
  // 2 x (10 + 10) = 40 < 1000: the big pack stays.
  assert.deepEqual(planPackRollup(packs(1000, 10, 10), 2).sort(), ['p1', 'p2']);
});

test('After a roll-up, the packs are a progression: planning again folds nothing.', () => {
  const counts = [100000, 300, 250, 200, 150, 120, 100, 90, 80];
  const folded = new Set(planPackRollup(packs(...counts), 2));
  const after = packs(...counts).filter((p) => !folded.has(p.name));
  after.push({
    name: 'new',
    objects: counts.filter((_, i) => folded.has(`p${i}`)).reduce((a, b) => a + b, 0),
  });
  assert.deepEqual(planPackRollup(after, 2), []);
  assert.ok(after.length <= 2, `${after.length} packs left`);
});

test('A factor of 1 or less is refused (it would never stop folding).', () => {
  assert.throws(() => planPackRollup(packs(1, 2), 1), /the geometric factor must be above 1, not 1/);
});
