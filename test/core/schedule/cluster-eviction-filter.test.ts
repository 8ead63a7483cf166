// Karmada's ClusterEviction filter and what follows from GracefulEvictCluster: the evicted
// cluster leaves the previous clusters and is in an eviction task, so the binding is scheduled
// again onto the rest (core/schedule/filter-cluster-eviction.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PreviousBinding } from '../../../src/core/model/binding.js';
import type { GracefulEvictionTask } from '../../../src/core/model/failover.js';
import type { Placement } from '../../../src/core/model/propagation-policy.js';
import { scheduleBinding } from '../../../src/core/schedule/schedule-binding.js';
import { aPlacement } from '../builders.js';
import { anInput, capacity, placementOf } from './schedule-fixtures.js';

const task: GracefulEvictionTask = {
  fromCluster: 'member2',
  purgeMode: 'Gracefully',
  replicas: 2,
  reason: 'TaintUntolerated',
  producer: 'TaintManager',
  creationTimestamp: '2026-12-01T15:00:00.000Z',
};

/** The previous binding after member2 was evicted: its clusters without member2, and the task. */
function evicted(clusters: Record<string, number>): PreviousBinding {
  return {
    key: 'apps/Deployment/default/nginx',
    policy: { kind: 'PropagationPolicy', namespace: 'default', name: 'nginx' },
    clusters: Object.entries(clusters).map(([name, replicas]) => ({ name, replicas })),
    evictionTasks: [task],
  };
}

const weighted: Placement['replicaScheduling'] = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Weighted',
};

const rows: {
  name: string;
  scheduling: Placement['replicaScheduling'];
  replicas: number;
  previous: PreviousBinding;
  /** Free replicas per cluster (default 100 each). */
  room?: Record<string, number>;
  want: string;
}[] = [
  {
    name: 'Duplicated: the binding just loses the evicted cluster',
    scheduling: { replicaSchedulingType: 'Duplicated' },
    replicas: 3,
    previous: evicted({ member1: 3, member3: 3 }),
    want: 'member1:3 member3:3',
  },
  {
    name: 'Divided by static weights: the replicas are divided over the clusters left',
    scheduling: {
      ...weighted,
      weightPreference: {
        staticWeightList: ['member1', 'member2', 'member3'].map((name) => ({
          targetCluster: { clusterNames: [name] },
          weight: 1,
        })),
      },
    },
    replicas: 6,
    previous: evicted({ member1: 2, member3: 2 }),
    want: 'member1:3 member3:3',
  },
  {
    name: 'Divided by dynamic weights: the missing replicas are a scale-up onto the clusters left',
    scheduling: { ...weighted, weightPreference: { dynamicWeight: 'AvailableReplicas' } },
    replicas: 6,
    previous: evicted({ member1: 2, member3: 2 }),
    want: 'member1:3 member3:3',
  },
  {
    name: 'Aggregated: the missing replicas go to the fewest clusters left, the roomiest first (the evicted one is roomier)',
    scheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
    replicas: 6,
    previous: evicted({ member1: 4 }),
    room: { member1: 0, member2: 50, member3: 10 },
    want: 'member1:4 member3:2',
  },
];

for (const row of rows) {
  test(`an evicted cluster is not scheduled again: ${row.name}`, () => {
    const room = (c: string) => capacity({ cpu: String(row.room?.[c] ?? 100), memory: '64Gi' });
    const result = scheduleBinding(
      anInput({
        replicas: row.replicas,
        replicaRequest: { cpuMilli: 1000, memoryBytes: 0, pods: 1 },
        placement: aPlacement({ replicaScheduling: row.scheduling }),
        clusterStatus: new Map(['member1', 'member2', 'member3'].map((c) => [c, room(c)])),
        previous: row.previous,
      }),
    );
    assert.equal(placementOf(result), row.want);
  });
}

test('the same binding without the task may be scheduled onto the cluster again', () => {
  const { evictionTasks: _task, ...previous } = evicted({ member1: 3, member3: 3 });
  const result = scheduleBinding(anInput({ replicas: 3, previous }));
  assert.equal(placementOf(result), 'member1:3 member2:3 member3:3');
});

test('a binding being evicted from its only cluster fits nowhere, and the diagnosis says why', () => {
  const result = scheduleBinding(anInput({ previous: evicted({}) }, ['member2']));
  assert.equal(result.type, 'NoFit');
  assert.deepEqual(result.type === 'NoFit' ? result.diagnosis : [], [
    {
      cluster: 'member2',
      filter: 'ClusterEviction',
      reason:
        'being evicted (TaintUntolerated by TaintManager since 2026-12-01T15:00:00.000Z): not schedulable until the eviction is done',
      // Nothing but the task keeps it out: the cluster is back (core/failover/apply-evictions.ts).
      onlyEviction: true,
    },
  ]);
});

test('an evicted cluster that another filter rejects too (still tainted) is not marked as kept out by the eviction alone', () => {
  const result = scheduleBinding(
    anInput(
      {
        previous: evicted({}),
        clusterStatus: new Map([['member2', { conditions: [{ type: 'Ready', status: 'Unknown' }] }]]),
      },
      ['member2'],
    ),
  );
  assert.equal(result.type, 'NoFit');
  assert.equal(result.type === 'NoFit' ? result.diagnosis[0]?.onlyEviction : 'scheduled', undefined);
});
