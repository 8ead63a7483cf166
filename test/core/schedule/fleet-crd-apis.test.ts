// A custom resource pushed together with its CRD (core/schedule/fleet-apis.ts): the APIs the
// fleet's own CRDs serve where they are placed count as enabled there, so the first render does
// not depend on which agents reported their API lists before the CRD reached them. Found by the
// interpreter-workerpool e2e test: one agent had reported (without the new API), the other not
// yet, and the Divided pool went wholly to the silent cluster and stayed there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Binding } from '../../../src/core/model/binding.js';
import type { ClusterStatus } from '../../../src/core/model/cluster.js';
import type { Fleet } from '../../../src/core/model/fleet.js';
import type { Snapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet, type RenderResult } from '../../../src/core/render/render-fleet.js';
import { clusterDoc, fileOf, mustLoad, policyDoc } from '../load/documents.js';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'pools.example.com' },
  spec: {
    group: 'example.com',
    names: { kind: 'Pool', plural: 'pools', singular: 'pool', listKind: 'PoolList' },
    scope: 'Namespaced',
    versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
      { name: 'v0', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
    ],
  },
};
const pool = (apiVersion = 'example.com/v1') => ({
  apiVersion,
  kind: 'Pool',
  metadata: { name: 'workers', namespace: 'shop' },
  spec: { workers: 5 },
});

// The pool's replicas as a GetReplicas script gives them (the Lua adapter interprets templates
// before the render: src/adapters/lua/interpreter-session.ts).
function fleetOf(crdClusters: string[], poolVersion?: string): Fleet {
  const fleet = mustLoad([
    fileOf('clusters/member1.yaml', clusterDoc('member1')),
    fileOf('clusters/member2.yaml', clusterDoc('member2')),
    fileOf('crds/pools.yaml', crd),
    fileOf('apps/pool.yaml', pool(poolVersion)),
    fileOf(
      'policies/p.yaml',
      policyDoc('ClusterPropagationPolicy', 'pool-crd', {
        resourceSelectors: [{ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' }],
        placement: { clusterAffinity: { clusterNames: crdClusters } },
      }),
      policyDoc('ClusterPropagationPolicy', 'pools', {
        resourceSelectors: [{ apiVersion: poolVersion ?? 'example.com/v1', kind: 'Pool' }],
        placement: {
          clusterAffinity: { clusterNames: ['member1', 'member2'] },
          replicaScheduling: {
            replicaSchedulingType: 'Divided',
            replicaDivisionPreference: 'Weighted',
            weightPreference: {
              staticWeightList: [
                { targetCluster: { clusterNames: ['member1'] }, weight: 3 },
                { targetCluster: { clusterNames: ['member2'] }, weight: 2 },
              ],
            },
          },
        },
      }),
    ),
  ]);
  const templates = fleet.templates.map((t) =>
    t.ref.kind === 'Pool'
      ? { ...t, interpreted: { scriptsKey: 'pool', replicas: { replicas: 5 }, revisesReplicas: false } }
      : t,
  );
  return { ...fleet, templates };
}

// member2 reported a complete API list from before the CRD reached it; member1 has not reported.
const status = new Map<string, ClusterStatus>([
  [
    'member2',
    {
      apiEnablements: [
        { groupVersion: 'v1', resources: [{ name: 'configmaps', kind: 'ConfigMap' }] },
        {
          groupVersion: 'apiextensions.k8s.io/v1',
          resources: [{ name: 'customresourcedefinitions', kind: 'CustomResourceDefinition' }],
        },
      ],
    },
  ],
]);

function snapshotOf(fleet: Fleet): Snapshot {
  return { fleet, clusterStatus: status, previous: new Map() };
}

function poolTargets(render: RenderResult): string {
  const binding = render.bindings.find((b: Binding) => b.resource.kind === 'Pool')!;
  if (binding.schedule.type !== 'Scheduled') return binding.schedule.type;
  return binding.schedule.clusters.map((c) => `${c.name}:${c.replicas}`).join(' ');
}

test('A custom resource pushed with its CRD is divided over every cluster its CRD goes to, reported or not.', () => {
  const render = renderFleet(snapshotOf(fleetOf(['member1', 'member2'])));
  assert.equal(poolTargets(render), 'member1:3 member2:2');
  assert.ok(
    [...render.clusters.get('member2')!.files.keys()].some((p) => p.includes('workers')),
    'member2 gets its share of the pool',
  );
});

test('A cluster the CRD does not go to is still left out when its API list lacks the kind (Karmada).', () => {
  const render = renderFleet(snapshotOf(fleetOf(['member1'])));
  assert.equal(poolTargets(render), 'member1:5');
  const schedule = render.bindings.find((b) => b.resource.kind === 'Pool')!.schedule;
  const refused = schedule.type === 'Scheduled' ? (schedule.refused ?? []) : [];
  assert.deepEqual(
    refused.map((r) => [r.cluster, r.filter]),
    [['member2', 'APIEnablement']],
  );
});

test('A version the CRD does not serve is not counted as enabled.', () => {
  const render = renderFleet(snapshotOf(fleetOf(['member1', 'member2'], 'example.com/v0')));
  assert.equal(poolTargets(render), 'member1:5');
});

test('The render memo schedules again when the CRD goes to more clusters.', () => {
  const first = renderFleet(snapshotOf(fleetOf(['member1'])));
  assert.equal(poolTargets(first), 'member1:5');
  const second = renderFleet(snapshotOf(fleetOf(['member1', 'member2'])), { memo: first.memo });
  assert.equal(poolTargets(second), 'member1:3 member2:2');
});
