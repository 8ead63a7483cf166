import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CopyTracker, type Reading } from '../../bench/chaos-watch.js';
import { seededRandom } from '../../bench/lib/seeded-random.js';

const crd = { name: 'CustomResourceDefinition/widgets', path: '/x', kind: 'always' as const };
const present = (uid: string): Reading => ({ type: 'Present', uid });
const absent: Reading = { type: 'Absent' };
const unknown: Reading = { type: 'Unknown' };

const cases: { name: string; readings: Reading[]; want: { deletions: number; recreations: number } }[] = [
  {
    name: 'a copy seen with one uid throughout was never deleted',
    readings: [present('a'), present('a'), unknown, present('a')],
    want: { deletions: 0, recreations: 0 },
  },
  {
    name: 'a copy that disappears is one deletion, and its return with a new uid one recreation',
    readings: [present('a'), absent, absent, present('b')],
    want: { deletions: 1, recreations: 1 },
  },
  {
    name: 'a uid that changes between two readings is a deletion and a recreation',
    readings: [present('a'), present('b')],
    want: { deletions: 1, recreations: 1 },
  },
  {
    name: 'readings while the server does not answer hide nothing that changed',
    readings: [present('a'), unknown, unknown, present('c')],
    want: { deletions: 1, recreations: 1 },
  },
  {
    name: 'a copy first seen absent and then created is neither',
    readings: [absent, present('a')],
    want: { deletions: 0, recreations: 0 },
  },
  {
    name: 'a copy deleted and never back is one deletion',
    readings: [present('a'), absent, absent],
    want: { deletions: 1, recreations: 0 },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const tracker = new CopyTracker();
    c.readings.forEach((r, i) => tracker.see('member1', crd, r, i * 1000));
    const [history] = tracker.histories();
    assert.deepEqual({ deletions: history!.deletions, recreations: history!.recreations }, c.want);
  });
}

test('the same seed gives the same choices, another seed others', () => {
  const draw = (seed: number) => {
    const r = seededRandom(seed);
    return Array.from({ length: 20 }, () => r.between(60, 180));
  };
  assert.deepEqual(draw(7), draw(7));
  assert.notDeepEqual(draw(7), draw(8));
  assert.ok(draw(7).every((n) => n >= 60 && n <= 180));
});
