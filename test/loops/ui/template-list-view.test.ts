// The overview's sync badge, as a table: a template is in sync when every cluster it is placed on
// applied what the hub rendered there; out of sync when one that reported did not; Unknown when
// the ones that did not have never reported; not placed when it is placed nowhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { syncOf, type SyncState } from '../../../src/loops/ui/template-list-view.js';

type Placed = { cluster: string; applied: boolean };
const applied = (cluster: string): Placed => ({ cluster, applied: true });
const notApplied = (cluster: string): Placed => ({ cluster, applied: false });

const cases: { name: string; items: Placed[]; reported: string[]; want: SyncState }[] = [
  { name: 'placed nowhere is not placed', items: [], reported: [], want: 'NotPlaced' },
  {
    name: 'every placed cluster applied it: Synced',
    items: [applied('m1'), applied('m2')],
    reported: ['m1', 'm2'],
    want: 'Synced',
  },
  {
    name: 'a reporting cluster that has not applied the rendered head: out of sync',
    items: [applied('m1'), notApplied('m2')],
    reported: ['m1', 'm2'],
    want: 'OutOfSync',
  },
  {
    name: 'the clusters not in sync never reported: Unknown',
    items: [applied('m1'), notApplied('m2')],
    reported: ['m1'],
    want: 'Unknown',
  },
  {
    name: 'one silent cluster and one that reported and lags: out of sync',
    items: [notApplied('m1'), notApplied('m2')],
    reported: ['m2'],
    want: 'OutOfSync',
  },
];

for (const c of cases)
  test(c.name, () => {
    assert.equal(
      syncOf(c.items, (cluster) => c.reported.includes(cluster)),
      c.want,
    );
  });
