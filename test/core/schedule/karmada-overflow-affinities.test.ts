// clusterAffinities[].overflowAffinities (Karmada v1.18), as Karmada's scheduler does it:
// - the ClusterAffinity filter (pkg/scheduler/framework/plugins/clusteraffinity/cluster_affinity.go)
//   lets a workload onto a cluster of the observed term's inline affinity or of any of its
//   overflow affinities; a non-workload (no replicas, no resource request) only onto the inline one;
// - each cluster gets an overflow order (pkg/scheduler/core/spreadconstraint/group_clusters.go
//   getClusterOverflowOrder): 0 for the inline affinity, i+1 for the first overflow affinity i it
//   matches; clusters sort by it first (spreadconstraint/util.go sortClusters);
// - assignWorkloadReplicas (pkg/scheduler/core/common.go) fills the tiers in order, each tier
//   getting min(remaining, the tier's available replicas) divided among its own clusters, and is
//   Unschedulable when replicas remain after the last tier.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PreviousBinding, TargetCluster } from '../../../src/core/model/binding.js';
import type { Placement } from '../../../src/core/model/propagation-policy.js';
import { scheduleBinding } from '../../../src/core/schedule/schedule-binding.js';
import type { ReplicaRequest } from '../../../src/core/schedule/replica-request-of.js';
import { aCluster, aPlacement } from '../builders.js';
import { anInput, capacity, placementOf } from './schedule-fixtures.js';

const request: ReplicaRequest = { cpuMilli: 1000, memoryBytes: 0, pods: 1 };
const dynamic: Placement['replicaScheduling'] = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Weighted',
  weightPreference: { dynamicWeight: 'AvailableReplicas' },
};
const aggregated: Placement['replicaScheduling'] = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Aggregated',
};
const clusters = [
  aCluster('onprem1', { labels: { tier: 'onprem' } }),
  aCluster('cloud1', { labels: { tier: 'cloud' } }),
  aCluster('cloud2', { labels: { tier: 'cloud' } }),
  aCluster('edge1', { labels: { tier: 'edge' } }),
];
const onprem = { labelSelector: { matchLabels: { tier: 'onprem' } } };
const cloud = { labelSelector: { matchLabels: { tier: 'cloud' } } };
const edge = { labelSelector: { matchLabels: { tier: 'edge' } } };

interface Given {
  replicas: number;
  scheduling?: Placement['replicaScheduling'];
  overflow?: boolean;
  room: Record<string, number>;
  previous?: Record<string, number>;
  workload?: boolean;
}

function schedule(given: Given): string {
  const workload = given.workload ?? true;
  const previous: PreviousBinding | undefined = given.previous && {
    key: 'apps/Deployment/default/nginx',
    policy: { kind: 'PropagationPolicy', namespace: 'default', name: 'nginx' },
    clusters: Object.entries(given.previous).map(([name, replicas]): TargetCluster => ({ name, replicas })),
    affinityName: 'main',
  };
  const input = anInput({
    replicas: workload ? given.replicas : 0,
    ...(workload ? { replicaRequest: request } : {}),
    clusters,
    placement: aPlacement({
      replicaScheduling: given.scheduling ?? dynamic,
      clusterAffinities: [
        {
          affinityName: 'main',
          ...onprem,
          ...(given.overflow === false
            ? {}
            : {
                overflowAffinities: [
                  { affinityName: 'burst', ...cloud },
                  { affinityName: 'last', ...edge },
                ],
              }),
        },
      ],
    }),
    clusterStatus: new Map(
      Object.entries(given.room).map(([name, n]) => [name, capacity({ cpu: String(n), memory: '64Gi' })]),
    ),
    ...(previous ? { previous } : {}),
  });
  return placementOf(scheduleBinding(input));
}

const cases: { name: string; given: Given; want: string }[] = [
  {
    name: 'Replicas the primary group can take stay there.',
    given: { replicas: 3, room: { onprem1: 4, cloud1: 9, cloud2: 9, edge1: 9 } },
    want: 'onprem1:3',
  },
  {
    name: 'What the primary group cannot take overflows to the first overflow group, divided there.',
    given: { replicas: 6, room: { onprem1: 2, cloud1: 5, cloud2: 5, edge1: 9 } },
    want: 'cloud1:2 cloud2:2 onprem1:2',
  },
  {
    name: 'When the first overflow group is full too, the next one takes the rest.',
    given: { replicas: 9, room: { onprem1: 2, cloud1: 2, cloud2: 1, edge1: 9 } },
    want: 'cloud1:2 cloud2:1 edge1:4 onprem1:2',
  },
  {
    name: 'Without overflowAffinities the same workload is unschedulable.',
    given: { replicas: 6, overflow: false, room: { onprem1: 2, cloud1: 5, cloud2: 5, edge1: 9 } },
    want: 'NoFit: no clusterAffinities term fits: [main] Clusters available replicas 2 are not enough to schedule 6',
  },
  {
    name: 'When every group together is too small, it is unschedulable.',
    given: { replicas: 20, room: { onprem1: 2, cloud1: 2, cloud2: 1, edge1: 3 } },
    want: 'NoFit: no clusterAffinities term fits: [main] Clusters available replicas are not enough to schedule.',
  },
  {
    name: 'Scaling down empties the overflow groups first.',
    given: {
      replicas: 3,
      room: { onprem1: 2, cloud1: 3, cloud2: 3, edge1: 9 },
      previous: { onprem1: 2, cloud1: 2, cloud2: 2 },
    },
    want: 'onprem1:3',
  },
  {
    name: 'Aggregated fills each group with as few clusters as it can.',
    given: { replicas: 6, scheduling: aggregated, room: { onprem1: 2, cloud1: 3, cloud2: 5, edge1: 9 } },
    want: 'cloud2:4 onprem1:2',
  },
  {
    name: 'An object that is not a workload goes only to the primary group.',
    given: { replicas: 0, workload: false, room: {} },
    want: 'onprem1:0',
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    assert.equal(schedule(given), want);
  });
}
