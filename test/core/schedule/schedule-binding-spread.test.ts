import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PreviousBinding } from '../../../src/core/model/binding.js';
import type { ClusterStatus } from '../../../src/core/model/cluster.js';
import type { Placement, SpreadConstraint } from '../../../src/core/model/propagation-policy.js';
import { scheduleBinding } from '../../../src/core/schedule/schedule-binding.js';
import { aCluster, aPlacement } from '../builders.js';
import { anInput, capacity, placementOf } from './schedule-fixtures.js';

// r1: m1 m2 · r2: m3 · r3: m4
const clusters = [
  aCluster('m1', { region: 'r1' }),
  aCluster('m2', { region: 'r1' }),
  aCluster('m3', { region: 'r2' }),
  aCluster('m4', { region: 'r3' }),
];

function byCluster(minGroups: number, maxGroups?: number): SpreadConstraint {
  return { spreadByField: 'cluster', minGroups, ...(maxGroups === undefined ? {} : { maxGroups }) };
}

function byRegion(minGroups: number, maxGroups: number): SpreadConstraint {
  return { spreadByField: 'region', minGroups, maxGroups };
}

const divided: Placement['replicaScheduling'] = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Weighted',
};
const dynamic: Placement['replicaScheduling'] = {
  ...divided,
  weightPreference: { dynamicWeight: 'AvailableReplicas' },
};

function previousOn(replicas: number, ...names: string[]): PreviousBinding {
  return {
    key: 'apps/Deployment/default/nginx',
    policy: { kind: 'PropagationPolicy', namespace: 'default', name: 'nginx' },
    clusters: names.map((name) => ({ name, replicas })),
  };
}

const cases: {
  name: string;
  given: {
    spread: SpreadConstraint[];
    replicas?: number;
    scheduling?: Placement['replicaScheduling'];
    status?: [string, ClusterStatus][];
    previous?: PreviousBinding;
  };
  want: string;
}[] = [
  {
    name: 'maxGroups caps the clusters of a Duplicated placement, best first by name.',
    given: { spread: [byCluster(1, 2)], replicas: 2 },
    want: 'm1:2 m2:2',
  },
  {
    name: 'Clusters of the previous result score higher and are kept first.',
    given: { spread: [byCluster(1, 2)], replicas: 2, previous: previousOn(2, 'm4') },
    want: 'm1:2 m4:2',
  },
  {
    name: 'Clusters with more available replicas come first on equal score.',
    given: {
      spread: [byCluster(1, 2)],
      replicas: 2,
      status: [
        ['m3', capacity({ pods: '50' })],
        ['m4', capacity({ pods: '40' })],
        ['m1', capacity({ pods: '1' })],
      ],
    },
    want: 'm3:2 m4:2',
  },
  {
    name: 'Fewer feasible clusters than minGroups give no fit.',
    given: { spread: [byCluster(5, 6)], replicas: 2 },
    want: 'NoFit: spreadConstraints: 4 feasible cluster(s) are fewer than minGroups 5 of the cluster constraint',
  },
  {
    name: 'A cluster constraint without maxGroups selects nothing, as in Karmada.',
    given: { spread: [byCluster(1)], replicas: 2 },
    want: 'NoFit: spreadConstraints: the cluster constraint selects no cluster: maxGroups is unset or 0 (Karmada reads an unset maxGroups as 0)',
  },
  {
    name: 'For divided replicas the best-scored cluster is swapped for one with more room when the replicas do not fit.',
    given: {
      spread: [byCluster(1, 2)],
      replicas: 7,
      scheduling: dynamic,
      previous: previousOn(1, 'm1'),
      status: [
        ['m1', capacity({ pods: '0' })],
        ['m2', capacity({ pods: '1' })],
        ['m3', capacity({ pods: '5' })],
        ['m4', capacity({ pods: '2' })],
      ],
    },
    want: 'm3:5 m4:2',
  },
  {
    name: 'When no set of maxGroups clusters has room for the replicas there is no fit.',
    given: {
      spread: [byCluster(1, 1)],
      replicas: 6,
      scheduling: dynamic,
      status: [
        ['m1', capacity({ pods: '5' })],
        ['m2', capacity({ pods: '5' })],
      ],
    },
    want: 'NoFit: spreadConstraints: no 1 cluster(s) have 6 replicas available together',
  },
  {
    name: 'Spread constraints are ignored for divided replicas without a weight preference.',
    given: { spread: [byCluster(1, 1)], replicas: 4, scheduling: divided },
    want: 'm1:1 m2:1 m3:1 m4:1',
  },
  {
    name: 'Spread constraints are ignored for static weights.',
    given: {
      spread: [byCluster(1, 1)],
      replicas: 4,
      scheduling: {
        ...divided,
        weightPreference: {
          staticWeightList: [{ targetCluster: { clusterNames: ['m1', 'm2'] }, weight: 1 }],
        },
      },
    },
    want: 'm1:2 m2:2',
  },
  {
    name: 'Spreading over two regions takes the best cluster of each region, then fills up to maxGroups.',
    given: { spread: [byRegion(2, 2), byCluster(2, 3)] },
    want: 'm1:0 m2:0 m3:0',
  },
  {
    name: 'Spreading over regions stops at one cluster per region when maxGroups of clusters allows no more.',
    given: { spread: [byRegion(3, 3), byCluster(3, 3)] },
    want: 'm1:0 m3:0 m4:0',
  },
  {
    name: 'Fewer regions than minGroups give no fit.',
    given: { spread: [byRegion(4, 4), byCluster(4, 4)] },
    want: 'NoFit: spreadConstraints: 3 feasible region(s) are fewer than minGroups 4 of the region constraint',
  },
  {
    name: 'Regions that cannot hold the clusters minGroups needs give no fit.',
    given: { spread: [byRegion(1, 1), byCluster(3, 4)] },
    want: 'NoFit: spreadConstraints: no 1..1 region(s) hold minGroups 3 of the cluster constraint',
  },
  {
    name: 'A region constraint without maxGroups selects nothing, as in Karmada.',
    given: { spread: [{ spreadByField: 'region', minGroups: 1 }, byCluster(1, 2)] },
    want: 'NoFit: spreadConstraints: the region constraint selects no region: maxGroups is unset or 0 (Karmada reads an unset maxGroups as 0)',
  },
  {
    name: 'Spreading by zone filters out clusters without zones.',
    given: { spread: [{ spreadByField: 'zone', minGroups: 1, maxGroups: 2 }] },
    want: 'NoFit: 0/4 clusters are available',
  },
  {
    name: 'Spreading only by label is not supported, as in Karmada.',
    given: { spread: [{ spreadByLabel: 'team', minGroups: 1, maxGroups: 2 }] },
    want: 'NoFit: spreadConstraints: only spreading by cluster and region is supported (as in Karmada)',
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const input = anInput({
      clusters,
      replicas: given.replicas ?? 0,
      placement: aPlacement({
        spreadConstraints: given.spread,
        ...(given.scheduling ? { replicaScheduling: given.scheduling } : {}),
      }),
      clusterStatus: new Map(given.status ?? []),
      ...(given.previous ? { previous: given.previous } : {}),
    });
    assert.equal(placementOf(scheduleBinding(input)), want);
  });
}
