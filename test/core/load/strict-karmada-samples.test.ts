// Full documents of every strictly checked kind, each field Karmada accepts written once, load
// without an unknown-field error: the schemas are not stricter than Karmada. The shapes follow
// Karmada's Go types and CRDs (named per test); the values are this test's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import type { SourceFile } from '../../../src/core/load/source-file.js';

const lines = (...text: string[]) => text.join('\n') + '\n';

const fullMetadata = [
  'metadata:',
  '  name: NAME',
  '  generateName: web-',
  '  uid: 0d9c7a52-0000-4000-8000-000000000001',
  '  resourceVersion: "42"',
  '  generation: 3',
  '  creationTimestamp: "2026-01-01T00:00:00Z"',
  '  labels: {team: shop}',
  '  annotations: {note: "written by hand"}',
  '  finalizers: [example.com/keep]',
  '  ownerReferences:',
  '    - {apiVersion: v1, kind: ConfigMap, name: owner, uid: u1, controller: false, blockOwnerDeletion: false}',
  '  managedFields:',
  '    - manager: kubectl',
  '      operation: Apply',
  '      apiVersion: v1',
  '      time: "2026-01-01T00:00:00Z"',
  '      fieldsType: FieldsV1',
  '      fieldsV1: {"f:metadata": {"f:labels": {}}}',
];

const metadataOf = (name: string, namespace?: string) => [
  ...fullMetadata.map((l) => l.replace('NAME', name)),
  ...(namespace ? [`  namespace: ${namespace}`] : []),
];

const selectors = (indent: string) =>
  [
    'labelSelector:',
    '  matchLabels: {tier: gold}',
    '  matchExpressions: [{key: env, operator: In, values: [prod]}]',
    'fieldSelector:',
    '  matchExpressions: [{key: region, operator: NotIn, values: [us-east-1]}]',
  ].map((l) => indent + l);

const template = (kind: string, name: string) =>
  lines('apiVersion: apps/v1', `kind: ${kind}`, `metadata: {name: ${name}, namespace: shop}`);

// Karmada pkg/apis/policy/v1alpha1/propagation_types.go and policy.karmada.io_propagationpolicies.yaml:
// PropagationSpec with a single clusterAffinity.
const propagationPolicy = lines(
  'apiVersion: policy.karmada.io/v1alpha1',
  'kind: PropagationPolicy',
  ...metadataOf('web', 'shop'),
  'spec:',
  '  resourceSelectors:',
  '    - apiVersion: apps/v1',
  '      kind: Deployment',
  '      namespace: shop',
  '      name: web',
  '    - apiVersion: apps/v1',
  '      kind: StatefulSet',
  '      name: db',
  '      labelSelector: {matchLabels: {app: db}}',
  '  association: false',
  '  propagateDeps: true',
  '  priority: 10',
  '  preemption: Always',
  '  dependentOverrides: [web-images]',
  '  schedulerName: default-scheduler',
  '  conflictResolution: Overwrite',
  '  activationPreference: Lazy',
  '  preserveResourcesOnDeletion: false',
  '  suspension:',
  '    dispatching: false',
  '    dispatchingOnClusters: {clusterNames: [member3]}',
  '  schedulePriority: {priorityClassSource: KubePriorityClass, priorityClassName: high}',
  '  failover:',
  '    application:',
  '      decisionConditions: {tolerationSeconds: 120}',
  '      purgeMode: Gracefully',
  '      gracePeriodSeconds: 600',
  '      statePreservation:',
  '        rules: [{aliasLabelName: app.example.com/generation, jsonPath: "{ .status.generation }"}]',
  '    cluster:',
  '      purgeMode: Directly',
  '      statePreservation:',
  '        rules: [{aliasLabelName: app.example.com/leader, jsonPath: "{ .status.leader }"}]',
  '  placement:',
  '    clusterAffinity:',
  '      clusterNames: [member1, member2, member3]',
  '      exclude: [member4]',
  ...selectors('      '),
  '    clusterTolerations:',
  '      - {key: dedicated, operator: Equal, value: shop, effect: NoSchedule}',
  '      - {key: unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}',
  '    spreadConstraints:',
  '      - {spreadByField: cluster, maxGroups: 3, minGroups: 1}',
  '    replicaScheduling:',
  '      replicaSchedulingType: Divided',
  '      replicaDivisionPreference: Weighted',
  '      weightPreference:',
  '        staticWeightList:',
  '          - targetCluster:',
  '              clusterNames: [member1]',
  ...selectors('              '),
  '            weight: 2',
  '          - targetCluster: {clusterNames: [member2], exclude: [member4]}',
  '            weight: 1',
  '    workloadAffinity:',
  '      affinity: {groupByLabelKey: app.example.com/group}',
  '      antiAffinity: {groupByLabelKey: app.example.com/replica-of}',
);

// The same, with ordered clusterAffinities and their overflowAffinities in place of clusterAffinity
// (the two cannot be set together), as a ClusterPropagationPolicy (policy.karmada.io_clusterpropagationpolicies.yaml).
const clusterPropagationPolicy = lines(
  'apiVersion: policy.karmada.io/v1alpha1',
  'kind: ClusterPropagationPolicy',
  ...metadataOf('db'),
  'spec:',
  '  resourceSelectors: [{apiVersion: apps/v1, kind: StatefulSet, namespace: shop, name: db}]',
  '  placement:',
  '    clusterAffinities:',
  '      - affinityName: primary',
  '        clusterNames: [member1]',
  '        exclude: [member4]',
  ...selectors('        '),
  '        overflowAffinities:',
  '          - affinityName: burst',
  '            clusterNames: [member2]',
  '            exclude: [member4]',
  ...selectors('            '),
  '      - affinityName: backup',
  '        clusterNames: [member3]',
  '    replicaScheduling:',
  '      replicaSchedulingType: Divided',
  '      replicaDivisionPreference: Weighted',
  '      weightPreference: {dynamicWeight: AvailableReplicas}',
);

const overriders = (indent: string) =>
  [
    'plaintext:',
    '  - {path: /spec/replicas, operator: replace, value: 2}',
    'imageOverrider:',
    '  - {component: Registry, operator: replace, value: mirror.example.com}',
    '  - predicate: {path: /spec/template/spec/containers/0/image}',
    '    component: Tag',
    '    operator: replace',
    '    value: "1.27"',
    'commandOverrider:',
    '  - {containerName: web, operator: add, value: ["--verbose"]}',
    'argsOverrider:',
    '  - {containerName: web, operator: remove, value: ["--debug"]}',
    'labelsOverrider:',
    '  - {operator: add, value: {region: eu}}',
    'annotationsOverrider:',
    '  - {operator: replace, value: {owner: shop}}',
    'fieldOverrider:',
    '  - fieldPath: /spec/template/metadata/annotations/config.json',
    '    json: [{subPath: /level, operator: replace, value: {nested: [1, 2]}}]',
    '  - fieldPath: /spec/template/metadata/annotations/config.yaml',
    '    yaml: [{subPath: /level, operator: add, value: debug}]',
  ].map((l) => indent + l);

// Karmada pkg/apis/policy/v1alpha1/override_types.go and policy.karmada.io_overridepolicies.yaml:
// OverrideSpec with every overrider in a rule, and the deprecated targetCluster and overriders.
const overridePolicy = lines(
  'apiVersion: policy.karmada.io/v1alpha1',
  'kind: OverridePolicy',
  ...metadataOf('web-images', 'shop'),
  'spec:',
  '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]',
  '  overrideRules:',
  '    - targetCluster:',
  '        clusterNames: [member1]',
  '        exclude: [member4]',
  ...selectors('        '),
  '      overriders:',
  ...overriders('        '),
);

// The deprecated form (spec.targetCluster and spec.overriders), in a ClusterOverridePolicy
// (policy.karmada.io_clusteroverridepolicies.yaml).
const clusterOverridePolicy = lines(
  'apiVersion: policy.karmada.io/v1alpha1',
  'kind: ClusterOverridePolicy',
  ...metadataOf('legacy'),
  'spec:',
  '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, namespace: shop}]',
  '  targetCluster: {clusterNames: [member2]}',
  '  overriders:',
  ...overriders('    '),
);

// Karmada pkg/apis/cluster/v1alpha1/types.go: ClusterSpec and ClusterStatus (Cluster is served by
// the aggregated API server, so the Go types are its schema).
const cluster = lines(
  'apiVersion: cluster.karmada.io/v1alpha1',
  'kind: Cluster',
  ...metadataOf('member1'),
  'spec:',
  '  id: 8b7c2f8e-0000-4000-8000-000000000002',
  '  syncMode: Pull',
  '  apiEndpoint: https://member1.example.com:6443',
  '  secretRef: {namespace: karmada-cluster, name: member1}',
  '  impersonatorSecretRef: {namespace: karmada-cluster, name: member1-impersonator}',
  '  insecureSkipTLSVerification: false',
  '  proxyURL: http://proxy.example.com:3128',
  '  proxyHeader: {X-Team: shop}',
  '  provider: aws',
  '  region: eu-west-1',
  '  zones: [eu-west-1a, eu-west-1b]',
  '  taints: [{key: dedicated, value: shop, effect: NoSchedule, timeAdded: "2026-01-01T00:00:00Z"}]',
  '  resourceModels:',
  '    - grade: 0',
  '      ranges:',
  '        - {name: cpu, min: "0", max: "1"}',
  '        - {name: memory, min: "0", max: 4Gi}',
  'status:',
  '  kubernetesVersion: v1.34.4',
  '  apiEnablements: [{groupVersion: apps/v1, resources: [{name: deployments, kind: Deployment}]}]',
  '  conditions:',
  '    - type: Ready',
  '      status: "True"',
  '      observedGeneration: 3',
  '      lastTransitionTime: "2026-01-01T00:00:00Z"',
  '      reason: ClusterReady',
  '      message: cluster is healthy and ready to accept workloads',
  '  nodeSummary: {totalNum: 3, readyNum: 3}',
  '  resourceSummary:',
  '    allocatable: {cpu: "12", memory: 48Gi}',
  '    allocating: {cpu: "1"}',
  '    allocated: {cpu: "4", memory: 16Gi}',
  '    allocatableModelings: [{grade: 0, count: 3}]',
  '  remedyActions: [TrafficControl]',
);

// Karmada pkg/apis/config/v1alpha1/resourceinterpretercustomization_types.go and
// config.karmada.io_resourceinterpretercustomizations.yaml: every customization rule.
const customization = lines(
  'apiVersion: config.karmada.io/v1alpha1',
  'kind: ResourceInterpreterCustomization',
  ...metadataOf('widget'),
  'spec:',
  '  target: {apiVersion: example.com/v1, kind: Widget}',
  '  customizations:',
  ...[
    'retention',
    'replicaResource',
    'replicaRevision',
    'statusReflection',
    'statusAggregation',
    'healthInterpretation',
    'dependencyInterpretation',
    'componentResource',
  ].flatMap((rule) => [`    ${rule}:`, '      luaScript: |', '        function Run(obj) return obj end']),
);

// gitfleet's own FleetConfig: every field parse-fleet-config.ts reads.
const fleetConfig = lines(
  'apiVersion: gitfleet.io/v1alpha1',
  'kind: FleetConfig',
  ...metadataOf('fleet'),
  'spec:',
  '  paths: {include: [apps/, clusters/, policies/, fleet.yaml], exclude: ["apps/legacy/**"]}',
  '  skippedNamespaces: ["kube-.*", scratch]',
  '  skippedApis: [example.com/v1/Widget]',
  '  branchPrefix: gitfleet/',
  '  guards: {maxDeleteFraction: 0.5, minObjects: 10}',
);

const rows: { name: string; file: SourceFile }[] = [
  {
    name: 'A PropagationPolicy using every field of PropagationSpec',
    file: { path: 'policies/pp.yaml', content: propagationPolicy },
  },
  {
    name: 'A ClusterPropagationPolicy with clusterAffinities and overflowAffinities',
    file: { path: 'policies/cpp.yaml', content: clusterPropagationPolicy },
  },
  {
    name: 'An OverridePolicy using every overrider',
    file: { path: 'policies/op.yaml', content: overridePolicy },
  },
  {
    name: 'A ClusterOverridePolicy in the deprecated targetCluster/overriders form',
    file: { path: 'policies/cop.yaml', content: clusterOverridePolicy },
  },
  {
    name: 'A Cluster using every field of ClusterSpec and ClusterStatus',
    file: { path: 'clusters/member1.yaml', content: cluster },
  },
  {
    name: 'A ResourceInterpreterCustomization scripting every operation',
    file: { path: 'interpreters/widget.yaml', content: customization },
  },
  { name: 'A FleetConfig using every field', file: { path: 'fleet.yaml', content: fleetConfig } },
];

const templates: SourceFile = {
  path: 'apps/workloads.yaml',
  content: `${template('Deployment', 'web')}---\n${template('StatefulSet', 'db')}`,
};

for (const row of rows) {
  test(`${row.name} loads without an unknown-field error.`, () => {
    const loaded = loadFleet([templates, row.file]);
    const errors = loaded.ok ? [] : loaded.errors;
    assert.deepEqual(
      errors.filter((e) => e.code === 'UnknownField'),
      [],
    );
    assert.deepEqual(loaded.warnings, []);
  });
}

test('All the samples together make a fleet that loads.', () => {
  const loaded = loadFleet([templates, ...rows.map((r) => r.file)]);
  assert.equal(loaded.ok, true, loaded.ok ? '' : JSON.stringify(loaded.errors, null, 2));
});
