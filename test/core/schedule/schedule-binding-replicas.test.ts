import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PreviousBinding, TargetCluster } from '../../../src/core/model/binding.js';
import type { ClusterStatus } from '../../../src/core/model/cluster.js';
import type { Placement } from '../../../src/core/model/propagation-policy.js';
import type { ClusterAffinity } from '../../../src/core/model/selectors.js';
import { scheduleBinding, type ReplicaRequest } from '../../../src/core/schedule/schedule-binding.js';
import { aPlacement } from '../builders.js';
import { anInput, capacity, placementOf } from './schedule-fixtures.js';

const request: ReplicaRequest = { cpuMilli: 1000, memoryBytes: 0, pods: 1 };
const duplicated: Placement['replicaScheduling'] = { replicaSchedulingType: 'Duplicated' };
const weighted: Placement['replicaScheduling'] = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Weighted',
};
const dynamic: Placement['replicaScheduling'] = {
  ...weighted,
  weightPreference: { dynamicWeight: 'AvailableReplicas' },
};
const aggregated: Placement['replicaScheduling'] = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Aggregated',
};

function staticWeights(weights: Record<string, number>): Placement['replicaScheduling'] {
  const staticWeightList = Object.entries(weights).map(([name, weight]) => ({
    targetCluster: { clusterNames: [name] },
    weight,
  }));
  return { ...weighted, weightPreference: { staticWeightList } };
}

/** Free room for `n` replicas of `request` (1 CPU each). */
function room(n: number): ClusterStatus {
  return capacity({ cpu: String(n), memory: '64Gi' });
}

function previousOf(clusters: Record<string, number>, affinityName?: string): PreviousBinding {
  return {
    key: 'apps/Deployment/default/nginx',
    policy: { kind: 'PropagationPolicy', namespace: 'default', name: 'nginx' },
    clusters: Object.entries(clusters).map(([name, replicas]): TargetCluster => ({ name, replicas })),
    ...(affinityName ? { affinityName } : {}),
  };
}

interface Given {
  scheduling: Placement['replicaScheduling'];
  replicas: number;
  request?: ReplicaRequest;
  room?: Record<string, number>;
  previous?: Record<string, number>;
  affinity?: ClusterAffinity;
  emptyWorkloadPropagation?: boolean;
}

function schedule(given: Given): string {
  const input = anInput({
    replicas: given.replicas,
    ...(given.request ? { replicaRequest: given.request } : {}),
    placement: aPlacement({
      replicaScheduling: given.scheduling,
      ...(given.affinity ? { clusterAffinity: given.affinity } : {}),
    }),
    clusterStatus: new Map(Object.entries(given.room ?? {}).map(([name, n]) => [name, room(n)])),
    ...(given.previous ? { previous: previousOf(given.previous) } : {}),
    ...(given.emptyWorkloadPropagation ? { emptyWorkloadPropagation: true } : {}),
  });
  return placementOf(scheduleBinding(input));
}

const cases: { name: string; given: Given; want: string }[] = [
  // Duplicated and objects without replicas
  {
    name: 'Duplicated gives every cluster all replicas.',
    given: { scheduling: duplicated, replicas: 3 },
    want: 'member1:3 member2:3 member3:3',
  },
  {
    name: 'An object without replicas goes to every cluster with 0, even when Divided.',
    given: { scheduling: weighted, replicas: 0 },
    want: 'member1:0 member2:0 member3:0',
  },
  {
    name: 'A workload with requests scaled to 0 is scheduled nowhere, as in Karmada by default.',
    given: { scheduling: weighted, replicas: 0, request },
    want: '',
  },
  {
    name: 'With empty workload propagation a workload scaled to 0 keeps every selected cluster.',
    given: { scheduling: weighted, replicas: 0, request, emptyWorkloadPropagation: true },
    want: 'member1:0 member2:0 member3:0',
  },
  // Static weights
  {
    name: 'Static weights 1:2 divide 9 replicas 3:6.',
    given: { scheduling: staticWeights({ member1: 1, member2: 2 }), replicas: 9 },
    want: 'member1:3 member2:6',
  },
  {
    name: 'A cluster without weight gets nothing and is left out.',
    given: { scheduling: staticWeights({ member1: 1, member3: 1 }), replicas: 4 },
    want: 'member1:2 member3:2',
  },
  {
    name: 'Clusters that end with 0 replicas are left out of the result.',
    given: { scheduling: staticWeights({ member1: 4, member2: 1, member3: 1 }), replicas: 2 },
    want: 'member1:2',
  },
  {
    name: 'Weighted without a preference divides equally.',
    given: { scheduling: weighted, replicas: 6 },
    want: 'member1:2 member2:2 member3:2',
  },
  // Dynamic weights
  {
    name: 'Dynamic weights divide by available replicas.',
    given: { scheduling: dynamic, replicas: 12, request, room: { member1: 18, member2: 12, member3: 6 } },
    want: 'member1:6 member2:4 member3:2',
  },
  {
    name: 'Dynamic weights without any status divide equally (fallback).',
    given: { scheduling: dynamic, replicas: 6, request },
    want: 'member1:2 member2:2 member3:2',
  },
  {
    name: 'Dynamic weights with partial status count silent clusters as having no room.',
    given: { scheduling: dynamic, replicas: 6, request, room: { member2: 10 } },
    want: 'member2:6',
  },
  {
    name: 'Not enough available replicas give no fit and keep the previous placement.',
    given: { scheduling: dynamic, replicas: 6, request, room: { member1: 2, member2: 3 } },
    want: 'NoFit: Clusters available replicas 5 are not enough to schedule 6',
  },
  {
    name: 'Scaling up adds only the increment, by available replicas, to the previous placement.',
    given: {
      scheduling: dynamic,
      replicas: 9,
      request,
      room: { member1: 0, member2: 0, member3: 10 },
      previous: { member1: 3, member2: 3 },
    },
    want: 'member1:3 member2:3 member3:3',
  },
  {
    name: 'Scaling down removes replicas in proportion to the previous placement.',
    given: {
      scheduling: dynamic,
      replicas: 6,
      request,
      room: { member3: 50 },
      previous: { member1: 6, member2: 3 },
    },
    want: 'member1:4 member2:2',
  },
  {
    name: 'Replicas of a cluster no longer selected are placed again as an increment.',
    given: {
      scheduling: dynamic,
      replicas: 6,
      request,
      room: { member1: 10, member2: 10, member3: 0 },
      previous: { member1: 3, member2: 3 },
      affinity: { exclude: ['member2'] },
    },
    want: 'member1:6',
  },
  // Aggregated
  {
    name: 'Aggregated puts all replicas on the cluster with the most room.',
    given: { scheduling: aggregated, replicas: 6, request, room: { member1: 4, member2: 10, member3: 2 } },
    want: 'member2:6',
  },
  {
    name: 'Aggregated uses as few clusters as needed.',
    given: { scheduling: aggregated, replicas: 12, request, room: { member1: 6, member2: 6, member3: 6 } },
    want: 'member1:6 member2:6',
  },
  {
    name: 'Aggregated without any status uses the first cluster (fallback).',
    given: { scheduling: aggregated, replicas: 5, request },
    want: 'member1:5',
  },
  {
    name: 'Aggregated without status keeps a previous cluster when scaling up.',
    given: { scheduling: aggregated, replicas: 6, request, previous: { member2: 4 } },
    want: 'member2:6',
  },
  {
    name: 'Aggregated fills previously used clusters first when scaling up.',
    given: {
      scheduling: aggregated,
      replicas: 8,
      request,
      room: { member1: 9, member2: 2, member3: 3 },
      previous: { member3: 4 },
    },
    want: 'member1:3 member3:5',
  },
  {
    name: 'Aggregated keeps the previous placement when nothing changed.',
    given: { scheduling: aggregated, replicas: 4, request, room: { member1: 50 }, previous: { member3: 4 } },
    want: 'member3:4',
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    assert.equal(schedule(given), want);
  });
}

test('A failure to fit the replicas reports each candidate room and keeps the previous placement.', () => {
  const input = anInput({
    replicas: 6,
    replicaRequest: request,
    placement: aPlacement({ replicaScheduling: dynamic }),
    clusterStatus: new Map([
      ['member1', room(2)],
      ['member2', room(3)],
    ]),
  });
  const result = scheduleBinding(input);
  assert.ok(result.type === 'NoFit');
  assert.equal(result.keepPrevious, true);
  assert.deepEqual(result.diagnosis, [
    { cluster: 'member2', filter: 'Capacity', reason: 'can take 3 more replica(s)' },
    { cluster: 'member1', filter: 'Capacity', reason: 'can take 2 more replica(s)' },
    { cluster: 'member3', filter: 'Capacity', reason: 'can take 0 more replica(s)' },
  ]);
});

const sticky: { name: string; given: Given }[] = [
  { name: 'Duplicated', given: { scheduling: duplicated, replicas: 2 } },
  { name: 'static weights', given: { scheduling: staticWeights({ member1: 1, member2: 3 }), replicas: 7 } },
  {
    name: 'dynamic weights with status',
    given: { scheduling: dynamic, replicas: 7, request, room: { member1: 5, member2: 9, member3: 1 } },
  },
  { name: 'dynamic weights without status', given: { scheduling: dynamic, replicas: 7, request } },
  {
    name: 'Aggregated',
    given: { scheduling: aggregated, replicas: 7, request, room: { member1: 5, member2: 4, member3: 1 } },
  },
];

for (const { name, given } of sticky) {
  test(`Scheduling again with unchanged inputs returns exactly the previous result (${name}).`, () => {
    const first = scheduleBinding(
      anInput({
        replicas: given.replicas,
        ...(given.request ? { replicaRequest: given.request } : {}),
        placement: aPlacement({ replicaScheduling: given.scheduling }),
        clusterStatus: new Map(Object.entries(given.room ?? {}).map(([n, r]) => [n, room(r)])),
      }),
    );
    assert.equal(first.type, 'Scheduled');
    assert.ok(first.type === 'Scheduled');
    const previous = Object.fromEntries(first.clusters.map((c) => [c.name, c.replicas]));
    assert.equal(schedule({ ...given, previous }), placementOf(first));
  });
}

test('A status change alone does not move replicas placed by available replicas.', () => {
  const before = { member1: 4, member2: 3 };
  assert.equal(
    schedule({
      scheduling: dynamic,
      replicas: 7,
      request,
      room: { member1: 0, member2: 0, member3: 90 },
      previous: before,
    }),
    'member1:4 member2:3',
  );
});

test('The same input always gives the same output.', () => {
  const given: Given = { scheduling: staticWeights({ member1: 1, member2: 1, member3: 1 }), replicas: 10 };
  const runs = new Set(Array.from({ length: 5 }, () => schedule(given)));
  assert.equal(runs.size, 1);
});
