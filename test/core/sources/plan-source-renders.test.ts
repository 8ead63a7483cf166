// Which renders a source needs: one per distinct set of per-cluster inputs (the clusterValues
// entries that pick a cluster, and its reported version and APIs when the chart reads
// .Capabilities), never one per cluster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cluster, ClusterStatus } from '../../../src/core/model/cluster.js';
import type { HelmSource, KustomizeSource } from '../../../src/core/model/template-source.js';
import { planSourceRenders } from '../../../src/core/sources/plan-source-renders.js';

const cluster = (name: string, labels: Record<string, string> = {}): Cluster => ({
  name,
  labels,
  zones: [],
  taints: [],
  syncMode: 'Pull',
  source: { file: `clusters/${name}.yaml`, index: 0 },
});

const helm = (clusterValues: HelmSource['clusterValues'] = []): HelmSource => ({
  kind: 'HelmSource',
  name: 'web',
  source: { file: 'sources/web.yaml', index: 0 },
  chart: { path: 'charts/web' },
  releaseName: 'web',
  namespace: 'shop',
  values: { replicas: 1 },
  valuesFiles: [],
  clusterValues,
});

const clusters = [
  cluster('c3', { tier: 'edge' }),
  cluster('c1'),
  cluster('c2', { tier: 'edge' }),
  cluster('c4'),
];
const status = new Map<string, ClusterStatus>([
  [
    'c1',
    {
      kubernetesVersion: 'v1.34.4',
      apiEnablements: [{ groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] }],
    },
  ],
  [
    'c2',
    {
      kubernetesVersion: 'v1.34.4',
      apiEnablements: [{ groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] }],
    },
  ],
  ['c3', { kubernetesVersion: 'v1.31.0' }],
]);
const groupsOf = (groups: ReturnType<typeof planSourceRenders>) => groups.map((g) => g.clusters);

test('a source without per-cluster inputs renders once for every cluster, whatever the clusters report', () => {
  const groups = planSourceRenders({ source: helm(), clusters, status, readsCapabilities: false });
  assert.deepEqual(groupsOf(groups), [['c1', 'c2', 'c3', 'c4']]);
  assert.deepEqual(groups[0]!.clusterValues, []);
  assert.equal(groups[0]!.kubeVersion, undefined);
});

test('clusterValues entries group the clusters they pick, by name or by labels, in the order of the entries', () => {
  const source = helm([
    { clusterSelector: { matchLabels: { tier: 'edge' } }, values: { replicas: 2 } },
    { clusterNames: ['c3', 'c4'], values: { replicas: 3 } },
  ]);
  const groups = planSourceRenders({ source, clusters, status, readsCapabilities: false });
  assert.deepEqual(groupsOf(groups), [['c1'], ['c2'], ['c3'], ['c4']]);
  assert.deepEqual(
    groups.map((g) => g.clusterValues),
    [[], [{ replicas: 2 }], [{ replicas: 2 }, { replicas: 3 }], [{ replicas: 3 }]],
  );
});

test('a chart that reads .Capabilities renders once per distinct version and API set, from what each cluster reported', () => {
  const groups = planSourceRenders({ source: helm(), clusters, status, readsCapabilities: true });
  assert.deepEqual(groupsOf(groups), [['c1', 'c2'], ['c3'], ['c4']]);
  assert.equal(groups[0]!.kubeVersion, 'v1.34.4');
  assert.deepEqual(groups[0]!.apiVersions, ['apps/v1', 'apps/v1/Deployment']);
  assert.equal(groups[1]!.kubeVersion, 'v1.31.0');
  assert.deepEqual(groups[1]!.apiVersions, []);
  assert.equal(groups[2]!.kubeVersion, undefined, 'c4 has not reported: Helm’s defaults');
  assert.notEqual(groups[0]!.identity, groups[1]!.identity);
});

test('a KustomizeSource, and a fleet without clusters, render once', () => {
  const kustomize: KustomizeSource = {
    kind: 'KustomizeSource',
    name: 'api',
    source: { file: 'sources/api.yaml', index: 0 },
    path: 'kustomize/prod',
  };
  assert.deepEqual(
    groupsOf(planSourceRenders({ source: kustomize, clusters, status, readsCapabilities: true })),
    [['c1', 'c2', 'c3', 'c4']],
  );
  const source = helm([{ clusterNames: ['c1'], values: { replicas: 2 } }]);
  assert.deepEqual(groupsOf(planSourceRenders({ source, clusters: [], status, readsCapabilities: true })), [
    [],
  ]);
});
