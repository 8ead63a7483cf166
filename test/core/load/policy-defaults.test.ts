import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getPath } from '../../../src/core/model/kube-object.js';
import { clusterDoc, fileOf, mustLoad, policyDoc, ppWithPlacement } from './documents.js';

const deployments = [{ apiVersion: 'apps/v1', kind: 'Deployment' }];

/** Loads one document and returns the single policy (or cluster) it became. */
function loadOne(doc: unknown): unknown {
  const fleet = mustLoad([fileOf('doc.yaml', doc)]);
  const all = [...fleet.propagationPolicies, ...fleet.overridePolicies, ...fleet.clusters];
  assert.equal(all.length, 1);
  return all[0];
}

interface Row {
  name: string;
  given: unknown;
  want: { path: (string | number)[]; value: unknown };
}

const rows: Row[] = [
  {
    name: "A PropagationPolicy's selector without a namespace gets the policy's namespace.",
    given: policyDoc('PropagationPolicy', 'p', { resourceSelectors: deployments }, 'shop'),
    want: { path: ['resourceSelectors', 0, 'namespace'], value: 'shop' },
  },
  {
    name: "A ClusterPropagationPolicy's selector without a namespace keeps none.",
    given: policyDoc('ClusterPropagationPolicy', 'p', { resourceSelectors: deployments }),
    want: { path: ['resourceSelectors', 0], value: { apiVersion: 'apps/v1', kind: 'Deployment' } },
  },
  {
    name: 'A PropagationPolicy without metadata.namespace lives in default, as kubectl would create it.',
    given: policyDoc('PropagationPolicy', 'p', { resourceSelectors: deployments }),
    want: { path: ['namespace'], value: 'default' },
  },
  {
    name: 'A spread constraint with neither field nor label spreads by cluster, with minGroups 1.',
    given: ppWithPlacement({ spreadConstraints: [{ maxGroups: 3 }] }),
    want: {
      path: ['placement', 'spreadConstraints'],
      value: [{ spreadByField: 'cluster', maxGroups: 3, minGroups: 1 }],
    },
  },
  {
    name: 'A spread constraint with minGroups 0 gets minGroups 1.',
    given: ppWithPlacement({ spreadConstraints: [{ spreadByField: 'cluster', minGroups: 0 }] }),
    want: { path: ['placement', 'spreadConstraints', 0, 'minGroups'], value: 1 },
  },
  {
    name: 'A spread constraint by label gets no spreadByField.',
    given: ppWithPlacement({ spreadConstraints: [{ spreadByLabel: 'topology/rack', minGroups: 2 }] }),
    want: {
      path: ['placement', 'spreadConstraints'],
      value: [{ spreadByLabel: 'topology/rack', minGroups: 2 }],
    },
  },
  {
    name: 'A placement without replicaScheduling duplicates replicas.',
    given: ppWithPlacement({}),
    want: { path: ['placement', 'replicaScheduling'], value: { replicaSchedulingType: 'Duplicated' } },
  },
  {
    name: 'A replicaScheduling without a type is Divided (CRD default) and Weighted (webhook default).',
    given: ppWithPlacement({ replicaScheduling: {} }),
    want: {
      path: ['placement', 'replicaScheduling'],
      value: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' },
    },
  },
  {
    name: 'Divided replicas without a division preference are Weighted.',
    given: ppWithPlacement({ replicaScheduling: { replicaSchedulingType: 'Divided' } }),
    want: { path: ['placement', 'replicaScheduling', 'replicaDivisionPreference'], value: 'Weighted' },
  },
  {
    name: 'Divided replicas keep an explicit Aggregated preference.',
    given: ppWithPlacement({
      replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
    }),
    want: { path: ['placement', 'replicaScheduling', 'replicaDivisionPreference'], value: 'Aggregated' },
  },
  {
    name: 'Duplicated replicas get no division preference.',
    given: ppWithPlacement({ replicaScheduling: { replicaSchedulingType: 'Duplicated' } }),
    want: { path: ['placement', 'replicaScheduling'], value: { replicaSchedulingType: 'Duplicated' } },
  },
  {
    name: 'A placement without tolerations gets an empty list.',
    given: ppWithPlacement({}),
    want: { path: ['placement', 'clusterTolerations'], value: [] },
  },
  {
    name: 'A placement without spread constraints gets an empty list.',
    given: ppWithPlacement({}),
    want: { path: ['placement', 'spreadConstraints'], value: [] },
  },
  {
    name: 'A policy without placement gets the default placement.',
    given: policyDoc('ClusterPropagationPolicy', 'p', { resourceSelectors: deployments }),
    want: {
      path: ['placement'],
      value: {
        clusterTolerations: [],
        spreadConstraints: [],
        replicaScheduling: { replicaSchedulingType: 'Duplicated' },
      },
    },
  },
  {
    name: 'Priority defaults to 0.',
    given: ppWithPlacement({}),
    want: { path: ['priority'], value: 0 },
  },
  {
    name: 'Preemption defaults to Never.',
    given: ppWithPlacement({}),
    want: { path: ['preemption'], value: 'Never' },
  },
  {
    name: 'ConflictResolution defaults to Abort.',
    given: ppWithPlacement({}),
    want: { path: ['conflictResolution'], value: 'Abort' },
  },
  {
    name: 'PropagateDeps defaults to false.',
    given: ppWithPlacement({}),
    want: { path: ['propagateDeps'], value: false },
  },
  {
    name: 'PropagateDeps is forced on when a ServiceImport is selected.',
    given: policyDoc(
      'PropagationPolicy',
      'p',
      {
        resourceSelectors: [{ apiVersion: 'multicluster.x-k8s.io/v1alpha1', kind: 'ServiceImport' }],
        propagateDeps: false,
      },
      'default',
    ),
    want: { path: ['propagateDeps'], value: true },
  },
  {
    name: 'SchedulerName defaults to default-scheduler.',
    given: ppWithPlacement({}),
    want: { path: ['schedulerName'], value: 'default-scheduler' },
  },
  {
    name: 'PreserveResourcesOnDeletion defaults to false.',
    given: ppWithPlacement({}),
    want: { path: ['preserveResourcesOnDeletion'], value: false },
  },
  {
    name: 'DependentOverrides defaults to an empty list.',
    given: ppWithPlacement({}),
    want: { path: ['dependentOverrides'], value: [] },
  },
  {
    name: "An OverridePolicy's selector without a namespace gets the policy's namespace.",
    given: policyDoc('OverridePolicy', 'o', { resourceSelectors: deployments, overrideRules: [] }, 'shop'),
    want: { path: ['resourceSelectors', 0, 'namespace'], value: 'shop' },
  },
  {
    name: "A ClusterOverridePolicy's selector without a namespace keeps none.",
    given: policyDoc('ClusterOverridePolicy', 'o', { resourceSelectors: deployments }),
    want: { path: ['resourceSelectors', 0], value: { apiVersion: 'apps/v1', kind: 'Deployment' } },
  },
  {
    name: 'An OverridePolicy without resourceSelectors keeps them absent (every resource).',
    given: policyDoc('OverridePolicy', 'o', {}, 'shop'),
    want: { path: ['resourceSelectors'], value: undefined },
  },
  {
    name: 'The deprecated targetCluster and overriders are folded into one override rule.',
    given: policyDoc(
      'OverridePolicy',
      'o',
      {
        targetCluster: { clusterNames: ['member1'] },
        overriders: { labelsOverrider: [{ operator: 'add', value: { tier: 'edge' } }] },
      },
      'shop',
    ),
    want: {
      path: ['overrideRules'],
      value: [
        {
          targetCluster: { clusterNames: ['member1'] },
          overriders: { labelsOverrider: [{ operator: 'add', value: { tier: 'edge' } }] },
        },
      ],
    },
  },
  {
    name: 'An override policy with no rules at all has one empty rule for every cluster, as Karmada folds it.',
    given: policyDoc('ClusterOverridePolicy', 'o', {}),
    want: { path: ['overrideRules'], value: [{ overriders: {} }] },
  },
  {
    name: "A cluster's legacy zone is folded into zones.",
    given: clusterDoc('member1', { zone: 'eu-1a' }),
    want: { path: ['zones'], value: ['eu-1a'] },
  },
  {
    name: 'A cluster without syncMode is Pull: gitfleet members are driven by their agent.',
    given: clusterDoc('member1'),
    want: { path: ['syncMode'], value: 'Pull' },
  },
  {
    name: 'A cluster without labels, zones or taints gets empty ones.',
    given: clusterDoc('member1', { syncMode: 'Push' }),
    want: {
      path: [],
      value: {
        name: 'member1',
        labels: {},
        zones: [],
        taints: [],
        syncMode: 'Push',
        source: { file: 'doc.yaml', index: 0, line: 1 },
      },
    },
  },
];

for (const row of rows) {
  test(row.name, () => {
    assert.deepEqual(getPath(loadOne(row.given), row.want.path), row.want.value);
  });
}
