import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultDeletionGuard, judgeMassDeletion } from '../../../src/core/model/mass-deletion-guard.js';

const rows = [
  { name: 'Deleting nothing is allowed.', total: 20, deleting: 0, want: { type: 'allowed' } },
  { name: 'An empty set has nothing to lose.', total: 0, deleting: 0, want: { type: 'allowed' } },
  {
    name: 'Deleting every object is refused, however few.',
    total: 1,
    deleting: 1,
    want: { type: 'all', total: 1 },
  },
  {
    name: 'Deleting every one of many is refused as all.',
    total: 40,
    deleting: 40,
    want: { type: 'all', total: 40 },
  },
  {
    name: 'More than half of over ten is refused.',
    total: 11,
    deleting: 6,
    want: { type: 'share', deleting: 6, total: 11, percent: 50 },
  },
  { name: 'Exactly half is allowed.', total: 20, deleting: 10, want: { type: 'allowed' } },
  {
    name: 'Most of ten or fewer is allowed (all is not).',
    total: 10,
    deleting: 9,
    want: { type: 'allowed' },
  },
] as const;

for (const row of rows) {
  test(row.name, () =>
    assert.deepEqual(judgeMassDeletion(row.total, row.deleting, defaultDeletionGuard), row.want),
  );
}

test('Other thresholds are honoured, and the share is reported as a whole percent.', () => {
  assert.deepEqual(judgeMassDeletion(100, 11, { maxDeleteFraction: 0.1, minObjects: 50 }), {
    type: 'share',
    deleting: 11,
    total: 100,
    percent: 10,
  });
  assert.deepEqual(judgeMassDeletion(40, 11, { maxDeleteFraction: 0.1, minObjects: 50 }), {
    type: 'allowed',
  });
});
