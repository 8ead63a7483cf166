import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LoadErrorCode } from '../../../src/core/load/load-fleet.js';
import { clusterDoc, fileOf, mustFail, mustLoad, policyDoc, ppWithPlacement } from './documents.js';

const deployments = [{ apiVersion: 'apps/v1', kind: 'Deployment' }];
const pp = (spec: Record<string, unknown>) =>
  policyDoc('PropagationPolicy', 'pp', { resourceSelectors: deployments, ...spec }, 'default');
const affinity = (expr: Record<string, unknown>) =>
  ppWithPlacement({ clusterAffinity: { labelSelector: { matchExpressions: [expr] } } });
const fieldAffinity = (expr: Record<string, unknown>) =>
  ppWithPlacement({ clusterAffinity: { fieldSelector: { matchExpressions: [expr] } } });
const spread = (...constraints: Record<string, unknown>[]) =>
  ppWithPlacement({ spreadConstraints: constraints });
const op = (spec: Record<string, unknown>) => policyDoc('OverridePolicy', 'op', spec, 'default');
const rule = (overriders: Record<string, unknown>) => op({ overrideRules: [{ overriders }] });
const field = (overrider: Record<string, unknown>) =>
  rule({ fieldOverrider: [{ fieldPath: '/data/cfg', ...overrider }] });
const R = 'spec.overrideRules[0].overriders';

interface Row {
  name: string;
  given: unknown;
  want: { code: LoadErrorCode; path: string; message: RegExp };
}

const rows: Row[] = [
  // PropagationPolicy / ClusterPropagationPolicy (ValidatePropagationSpec and the CRD)
  {
    name: 'A propagation policy without a spec is refused for its missing resourceSelectors.',
    given: { ...pp({}), spec: undefined },
    want: { code: 'InvalidPolicy', path: 'spec.resourceSelectors', message: /is required/ },
  },
  {
    name: 'A propagation policy needs resourceSelectors.',
    given: policyDoc('ClusterPropagationPolicy', 'c', { placement: {} }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.resourceSelectors',
      message: /is required and must not be empty/,
    },
  },
  {
    name: 'An empty resourceSelectors list does not mean everything: it is refused.',
    given: policyDoc('ClusterPropagationPolicy', 'c', { resourceSelectors: [] }),
    want: { code: 'InvalidPolicy', path: 'spec.resourceSelectors', message: /must not be empty/ },
  },
  {
    name: 'A resource selector needs a kind.',
    given: pp({ resourceSelectors: [{ apiVersion: 'v1' }] }),
    want: { code: 'InvalidPolicy', path: 'spec.resourceSelectors[0].kind', message: /is required/ },
  },
  {
    name: 'A namespaced policy may only select its own namespace.',
    given: pp({ resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'other' }] }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.resourceSelectors[0].namespace',
      message: /must be the same as the namespace of the policy/,
    },
  },
  {
    name: 'With preemption Always every selector must name its resource.',
    given: pp({ preemption: 'Always' }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.resourceSelectors[0].name',
      message: /name cannot be empty if preemption is Always/,
    },
  },
  {
    name: 'Preemption is Always or Never.',
    given: pp({ preemption: 'Sometimes' }),
    want: { code: 'InvalidPolicy', path: 'spec.preemption', message: /must be one of Always, Never/ },
  },
  {
    name: 'ConflictResolution is Abort or Overwrite.',
    given: pp({ conflictResolution: 'Merge' }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.conflictResolution',
      message: /must be one of Abort, Overwrite/,
    },
  },
  {
    name: 'Priority is an integer.',
    given: pp({ priority: 'high' }),
    want: { code: 'InvalidPolicy', path: 'spec.priority', message: /must be an integer/ },
  },
  {
    name: 'clusterAffinity and clusterAffinities cannot both be set.',
    given: ppWithPlacement({ clusterAffinity: {}, clusterAffinities: [{ affinityName: 'a' }] }),
    want: { code: 'InvalidPolicy', path: 'spec.placement', message: /cannot co-exist/ },
  },
  {
    name: 'Each clusterAffinities term needs an affinityName.',
    given: ppWithPlacement({ clusterAffinities: [{ clusterNames: ['a'] }] }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.clusterAffinities[0].affinityName',
      message: /is required/,
    },
  },
  {
    name: 'An affinityName is at most 32 characters.',
    given: ppWithPlacement({ clusterAffinities: [{ affinityName: 'a'.repeat(33) }] }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.clusterAffinities[0].affinityName',
      message: /no more than 32/,
    },
  },
  {
    name: 'An affinityName is a qualified name.',
    given: ppWithPlacement({ clusterAffinities: [{ affinityName: 'primary group!' }] }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.clusterAffinities[0].affinityName',
      message: /alphanumerics/,
    },
  },
  {
    name: 'Affinity names are unique within a policy.',
    given: ppWithPlacement({ clusterAffinities: [{ affinityName: 'a' }, { affinityName: 'a' }] }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.clusterAffinities',
      message: /must have a unique name/,
    },
  },
  {
    name: 'A spread constraint uses a field or a label, not both.',
    given: spread({ spreadByField: 'cluster', spreadByLabel: 'rack' }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.spreadConstraints[0]',
      message: /should not co-exist/,
    },
  },
  {
    name: 'maxGroups may not be lower than minGroups.',
    given: spread({ spreadByField: 'cluster', minGroups: 3, maxGroups: 2 }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.spreadConstraints[0]',
      message: /maxGroups lower than minGroups/,
    },
  },
  {
    name: 'minGroups may not be negative.',
    given: spread({ spreadByField: 'cluster', minGroups: -1 }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.spreadConstraints[0]',
      message: /minGroups lower than 0/,
    },
  },
  {
    name: 'maxGroups may not be negative.',
    given: spread({ spreadByField: 'cluster', maxGroups: -2 }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.spreadConstraints[0]',
      message: /maxGroups lower than 0/,
    },
  },
  {
    name: 'Spreading by a field needs a cluster spread constraint too.',
    given: spread({ spreadByField: 'region', minGroups: 2 }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.spreadConstraints',
      message: /cluster spread constraint must be enabled/,
    },
  },
  {
    name: 'The same spreadByField may appear only once.',
    given: spread({ spreadByField: 'cluster' }, { spreadByField: 'cluster', maxGroups: 2 }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.spreadConstraints',
      message: /multiple cluster spread constraints/,
    },
  },
  {
    name: 'spreadByField is cluster, region, zone or provider.',
    given: spread({ spreadByField: 'country' }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.spreadConstraints[0].spreadByField',
      message: /must be one of cluster, region, zone, provider/,
    },
  },
  {
    name: 'A static weight is at least 1.',
    given: ppWithPlacement({
      replicaScheduling: {
        weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['a'] }, weight: 0 }] },
      },
    }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.replicaScheduling.weightPreference.staticWeightList[0].weight',
      message: /greater than or equal to 1/,
    },
  },
  {
    name: 'A static weight needs a targetCluster.',
    given: ppWithPlacement({
      replicaScheduling: { weightPreference: { staticWeightList: [{ weight: 2 }] } },
    }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.replicaScheduling.weightPreference.staticWeightList[0].targetCluster',
      message: /is required/,
    },
  },
  {
    name: 'replicaSchedulingType is Duplicated or Divided.',
    given: ppWithPlacement({ replicaScheduling: { replicaSchedulingType: 'Spread' } }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.replicaScheduling.replicaSchedulingType',
      message: /Duplicated, Divided/,
    },
  },
  {
    name: 'A label selector requirement with In needs values.',
    given: affinity({ key: 'env', operator: 'In' }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.clusterAffinity.labelSelector.matchExpressions[0].values',
      message: /must be specified when operator is In/,
    },
  },
  {
    name: 'A label selector requirement with Exists takes no values.',
    given: affinity({ key: 'env', operator: 'Exists', values: ['x'] }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.clusterAffinity.labelSelector.matchExpressions[0].values',
      message: /may not be specified when operator is Exists/,
    },
  },
  {
    name: 'A label selector operator is In, NotIn, Exists or DoesNotExist.',
    given: affinity({ key: 'env', operator: 'Like', values: ['x'] }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.clusterAffinity.labelSelector.matchExpressions[0].operator',
      message: /unsupported value "Like"/,
    },
  },
  {
    name: 'A field selector key is provider, region or zone.',
    given: fieldAffinity({ key: 'country', operator: 'In', values: ['x'] }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.clusterAffinity.fieldSelector.matchExpressions[0].key',
      message: /provider, region, zone/,
    },
  },
  {
    name: 'A field selector operator is In or NotIn.',
    given: fieldAffinity({ key: 'region', operator: 'Exists' }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.clusterAffinity.fieldSelector.matchExpressions[0].operator',
      message: /In, NotIn/,
    },
  },
  {
    name: 'A cluster toleration may not use Lt or Gt.',
    given: ppWithPlacement({ clusterTolerations: [{ key: 'k', operator: 'Lt', value: '3' }] }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.placement.clusterTolerations[0].operator',
      message: /Exists, Equal/,
    },
  },
  {
    name: 'Suspending all dispatching excludes suspending it on named clusters.',
    given: pp({ suspension: { dispatching: true, dispatchingOnClusters: { clusterNames: ['a'] } } }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.suspension',
      message: /cannot co-exist with dispatchingOnClusters/,
    },
  },
  {
    name: 'Application failover needs propagateDeps.',
    given: pp({ failover: { application: { decisionConditions: { tolerationSeconds: 60 } } } }),
    want: { code: 'InvalidPolicy', path: 'spec.propagateDeps', message: /propagateDeps must be true/ },
  },
  // OverridePolicy / ClusterOverridePolicy (ValidateOverrideSpec and the CRD)
  {
    name: 'An image overrider component is Registry, Repository or Tag.',
    given: rule({ imageOverrider: [{ component: 'Digest', operator: 'replace', value: 'x' }] }),
    want: {
      code: 'InvalidPolicy',
      path: `${R}.imageOverrider[0].component`,
      message: /Registry, Repository, Tag/,
    },
  },
  {
    name: 'An image overrider needs an operator.',
    given: rule({ imageOverrider: [{ component: 'Tag', value: 'x' }] }),
    want: { code: 'InvalidPolicy', path: `${R}.imageOverrider[0].operator`, message: /is required/ },
  },
  {
    name: "An image overrider's predicate path starts with '/'.",
    given: rule({
      imageOverrider: [{ component: 'Tag', operator: 'replace', value: 'x', predicate: { path: 'spec/x' } }],
    }),
    want: {
      code: 'InvalidPolicy',
      path: `${R}.imageOverrider[0].predicate.path`,
      message: /starting with '\/'/,
    },
  },
  {
    name: 'A field overrider has JSON or YAML operations, not both.',
    given: field({
      json: [{ subPath: '/a', operator: 'remove' }],
      yaml: [{ subPath: '/b', operator: 'remove' }],
    }),
    want: { code: 'InvalidPolicy', path: `${R}.fieldOverrider[0]`, message: /both YAML and JSON/ },
  },
  {
    name: 'A field overrider has JSON or YAML operations, not neither.',
    given: field({}),
    want: { code: 'InvalidPolicy', path: `${R}.fieldOverrider[0]`, message: /either JSON or YAML/ },
  },
  {
    name: 'A field overrider add operation needs a value.',
    given: field({ json: [{ subPath: '/a', operator: 'add' }] }),
    want: {
      code: 'InvalidPolicy',
      path: `${R}.fieldOverrider[0].json[0].value`,
      message: /value is required for add or replace/,
    },
  },
  {
    name: 'A field overrider remove operation takes no value.',
    given: field({ yaml: [{ subPath: '/a', operator: 'remove', value: 1 }] }),
    want: {
      code: 'InvalidPolicy',
      path: `${R}.fieldOverrider[0].yaml[0].value`,
      message: /not allowed for remove/,
    },
  },
  {
    name: 'A field overrider subPath is a JSON pointer.',
    given: field({ json: [{ subPath: 'a/b', operator: 'remove' }] }),
    want: { code: 'InvalidPolicy', path: `${R}.fieldOverrider[0].json[0].subPath`, message: /JSON pointer/ },
  },
  {
    name: 'A plaintext overrider operator is add, remove or replace.',
    given: rule({ plaintext: [{ path: '/spec/replicas', operator: 'set', value: 1 }] }),
    want: { code: 'InvalidPolicy', path: `${R}.plaintext[0].operator`, message: /add, remove, replace/ },
  },
  {
    name: 'A command overrider names its container.',
    given: rule({ commandOverrider: [{ operator: 'add', value: ['--x'] }] }),
    want: { code: 'InvalidPolicy', path: `${R}.commandOverrider[0].containerName`, message: /is required/ },
  },
  {
    name: 'A labels overrider sets valid label values.',
    given: rule({ labelsOverrider: [{ operator: 'add', value: { tier: 'not valid!' } }] }),
    want: {
      code: 'InvalidPolicy',
      path: `${R}.labelsOverrider[0].value[tier]`,
      message: /value "not valid!"/,
    },
  },
  {
    name: 'overrideRules and the deprecated targetCluster cannot co-exist.',
    given: op({ overrideRules: [{ overriders: {} }], targetCluster: { clusterNames: ['a'] } }),
    want: { code: 'InvalidPolicy', path: 'spec.targetCluster', message: /can't co-exist/ },
  },
  {
    name: 'overrideRules and the deprecated overriders cannot co-exist.',
    given: op({
      overrideRules: [{ overriders: {} }],
      overriders: { plaintext: [{ path: '/a', operator: 'remove' }] },
    }),
    want: { code: 'InvalidPolicy', path: 'spec.overriders', message: /can't co-exist/ },
  },
  {
    name: 'An override rule needs overriders.',
    given: op({ overrideRules: [{ targetCluster: { clusterNames: ['a'] } }] }),
    want: { code: 'InvalidPolicy', path: 'spec.overrideRules[0].overriders', message: /is required/ },
  },
  {
    name: 'An OverridePolicy may only select its own namespace.',
    given: op({ resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'other' }] }),
    want: {
      code: 'InvalidPolicy',
      path: 'spec.resourceSelectors[0].namespace',
      message: /same as the namespace of the policy/,
    },
  },
  // Cluster (ValidateClusterName, ValidateClusterSpec)
  {
    name: 'A cluster name is at most 48 characters.',
    given: clusterDoc('c'.repeat(49)),
    want: { code: 'InvalidName', path: 'metadata.name', message: /no more than 48 characters/ },
  },
  {
    name: 'A cluster name is a DNS label: no dots.',
    given: clusterDoc('member.one'),
    want: { code: 'InvalidName', path: 'metadata.name', message: /RFC 1123 label/ },
  },
  {
    name: 'A cluster taint effect is NoSchedule or NoExecute, as Karmada allows for clusters.',
    given: clusterDoc('m1', { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] }),
    want: { code: 'InvalidCluster', path: 'spec.taints[0].effect', message: /NoSchedule, NoExecute/ },
  },
  {
    name: 'Cluster taints are unique by key and effect.',
    given: clusterDoc('m1', {
      taints: [
        { key: 'k', effect: 'NoSchedule' },
        { key: 'k', value: 'x', effect: 'NoSchedule' },
      ],
    }),
    want: { code: 'InvalidCluster', path: 'spec.taints[1]', message: /unique by key and effect/ },
  },
  {
    name: 'A cluster sets zone or zones, not both.',
    given: clusterDoc('m1', { zone: 'a', zones: ['b'] }),
    want: { code: 'InvalidCluster', path: 'spec', message: /zone and zones cannot co-exist/ },
  },
  {
    name: 'A cluster region is a label value.',
    given: clusterDoc('m1', { region: 'eu west' }),
    want: { code: 'InvalidCluster', path: 'spec.region', message: /"eu west"/ },
  },
  {
    name: 'Cluster label keys are qualified names.',
    given: clusterDoc('m1', {}, { 'bad key': 'x' }),
    want: { code: 'InvalidCluster', path: 'metadata.labels[bad key]', message: /key "bad key"/ },
  },
  {
    name: 'Cluster label values are strings.',
    given: clusterDoc('m1', {}, { replicas: 3 }),
    want: { code: 'InvalidCluster', path: 'metadata.labels[replicas]', message: /must be a string/ },
  },
];

for (const row of rows) {
  test(row.name, () => {
    const errors = mustFail([fileOf('doc.yaml', row.given)]);
    assert.equal(errors.length, 1, JSON.stringify(errors, null, 2));
    const [error] = errors;
    assert.equal(error?.code, row.want.code);
    assert.ok(
      error?.message.includes(`${row.want.path}: `) || error?.message.includes(`${row.want.path} "`),
      error?.message,
    );
    assert.match(error?.message ?? '', row.want.message);
  });
}

test('A policy that keeps every rule loads: the validation rows above fail for their one reason only.', () => {
  const fleet = mustLoad([
    fileOf(
      'ok.yaml',
      ppWithPlacement(
        {
          clusterAffinities: [
            { affinityName: 'primary', clusterNames: ['a'] },
            {
              affinityName: 'backup',
              labelSelector: { matchExpressions: [{ key: 'env', operator: 'Exists' }] },
            },
          ],
          clusterTolerations: [{ key: 'k', operator: 'Exists' }],
          spreadConstraints: [
            { spreadByField: 'cluster', maxGroups: 2 },
            { spreadByField: 'region', minGroups: 1 },
          ],
          replicaScheduling: {
            weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['a'] }, weight: 1 }] },
          },
        },
        {
          preemption: 'Always',
          resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        },
      ),
      rule({
        imageOverrider: [
          {
            component: 'Tag',
            operator: 'replace',
            value: '1.27',
            predicate: { path: '/spec/template/spec/containers/0/image' },
          },
        ],
        fieldOverrider: [
          { fieldPath: '/data/cfg', yaml: [{ subPath: '/a', operator: 'replace', value: { b: 1 } }] },
        ],
        labelsOverrider: [{ operator: 'add', value: { 'app.kubernetes.io/tier': 'edge' } }],
      }),
      clusterDoc(
        'm1',
        { region: 'eu-west', zones: ['a', 'b'], taints: [{ key: 'k', effect: 'NoExecute' }] },
        { env: 'prod' },
      ),
    ),
  ]);
  assert.equal(fleet.propagationPolicies.length, 1);
  assert.equal(fleet.overridePolicies.length, 1);
  assert.equal(fleet.clusters.length, 1);
});
