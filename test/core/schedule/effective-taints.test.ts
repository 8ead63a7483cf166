import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterStatus, Taint } from '../../../src/core/model/cluster.js';
import { effectiveTaints } from '../../../src/core/schedule/effective-taints.js';
import { aCluster } from '../builders.js';

const specTaint: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };

function ready(status: 'True' | 'False' | 'Unknown'): ClusterStatus {
  return { conditions: [{ type: 'Ready', status }] };
}

const cases: {
  name: string;
  given: { taints: Taint[]; status: ClusterStatus | undefined };
  want: Taint[];
}[] = [
  {
    name: 'A cluster whose Ready condition is False gets the not-ready NoSchedule taint.',
    given: { taints: [], status: ready('False') },
    want: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' }],
  },
  {
    name: 'A cluster whose Ready condition is Unknown gets the unreachable NoSchedule taint.',
    given: { taints: [specTaint], status: ready('Unknown') },
    want: [specTaint, { key: 'cluster.karmada.io/unreachable', effect: 'NoSchedule' }],
  },
  {
    name: 'A Ready cluster keeps only its spec taints.',
    given: { taints: [specTaint], status: ready('True') },
    want: [specTaint],
  },
  {
    name: 'A cluster without status keeps only its spec taints.',
    given: { taints: [specTaint], status: undefined },
    want: [specTaint],
  },
  {
    name: 'A status without a Ready condition adds nothing.',
    given: { taints: [], status: { conditions: [{ type: 'CompleteAPIEnablements', status: 'False' }] } },
    want: [],
  },
  {
    name: 'A derived taint already present in the spec is not added twice.',
    given: {
      taints: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' }],
      status: ready('False'),
    },
    want: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' }],
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    assert.deepEqual(effectiveTaints(aCluster('member1', { taints: given.taints }), given.status), want);
  });
}

// With the hub's taints (Snapshot.clusterTaints) the Ready condition is not read again: the hub
// kept what it decided (core/failover/cluster-taints.ts), with the time it added each.
const kept = { key: 'example.com/down', effect: 'NoExecute' as const, timeAdded: '2026-12-01T15:00:00.000Z' };

test('With the hub’s taints, the cluster has its spec taints and the kept ones, not a derived one.', () => {
  const hub = new Map([['member1', [kept]]]);
  const cluster = aCluster('member1', { taints: [specTaint] });
  assert.deepEqual(effectiveTaints(cluster, ready('False'), hub), [specTaint, kept]);
});

test('With the hub’s taints, a cluster it keeps none on has its spec taints only, whatever its status.', () => {
  const cluster = aCluster('member1', { taints: [specTaint] });
  assert.deepEqual(effectiveTaints(cluster, ready('False'), new Map()), [specTaint]);
});

test('A kept taint whose key and effect a spec taint has is not added twice.', () => {
  const cluster = aCluster('member1', { taints: [{ key: kept.key, effect: kept.effect }] });
  assert.deepEqual(effectiveTaints(cluster, undefined, new Map([['member1', [kept]]])), [
    { key: kept.key, effect: kept.effect },
  ]);
});
