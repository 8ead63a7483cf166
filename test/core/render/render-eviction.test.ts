// What a graceful eviction task does to the render (core/follow/placed-clusters.ts): with
// purgeMode Gracefully or Never the binding's objects stay on the cluster it is evicted from,
// with the task's replicas, and so do its followers (a propagateDeps ConfigMap) and the
// Namespace they need; with Directly, or once the task is dropped, they are gone from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import { loadFleet, type SourceFile } from '../../../src/core/load/load-fleet.js';
import type { PreviousBinding } from '../../../src/core/model/binding.js';
import type { GracefulEvictionTask, PurgeMode } from '../../../src/core/model/failover.js';
import { renderFleet, type RenderResult } from '../../../src/core/render/render-fleet.js';

const files: SourceFile[] = [
  {
    path: 'clusters.yaml',
    content: ['member1', 'member2', 'member3']
      .map(
        (name) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: ${name}}
spec: {}
`,
      )
      .join('---\n'),
  },
  {
    path: 'shop.yaml',
    content: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 6
  template:
    spec:
      containers:
        - name: web
          image: web:1
          envFrom: [{configMapRef: {name: web-config}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-config, namespace: shop}
data: {greeting: hello}
`,
  },
  {
    path: 'policy.yaml',
    content: `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  propagateDeps: true
  placement:
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
`,
  },
];

const web = 'shop/Deployment.apps/web.yaml';
const config = 'shop/ConfigMap/web-config.yaml';
const namespace = '_cluster/Namespace/shop.yaml';

function task(purgeMode: PurgeMode): GracefulEvictionTask {
  return {
    fromCluster: 'member2',
    purgeMode,
    replicas: 2,
    reason: 'TaintUntolerated',
    producer: 'TaintManager',
    creationTimestamp: '2026-12-01T15:00:00.000Z',
  };
}

/**
 * Renders with web evicted from member2 (out of its clusters), with these tasks. member2 is
 * NotReady, as a cluster evicted from usually is: its NoSchedule taint keeps a new schedule off
 * it once no task does.
 */
function renderEvicted(tasks: GracefulEvictionTask[] | undefined): RenderResult {
  const loaded = loadFleet(files);
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  const previous: PreviousBinding = {
    key: 'apps/Deployment/shop/web',
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'web' },
    clusters: [
      { name: 'member1', replicas: 2 },
      { name: 'member3', replicas: 2 },
    ],
    ...(tasks ? { evictionTasks: tasks } : {}),
  };
  return renderFleet({
    fleet: loaded.fleet,
    clusterStatus: new Map([['member2', { conditions: [{ type: 'Ready', status: 'False' }] }]]),
    previous: new Map([[previous.key, previous]]),
  });
}

function replicasOf(result: RenderResult, cluster: string): unknown {
  const text = result.clusters.get(cluster)?.files.get(web);
  return text === undefined ? undefined : (yaml.load(text) as { spec: { replicas: number } }).spec.replicas;
}

function pathsOn(result: RenderResult, cluster: string): string[] {
  return [...(result.clusters.get(cluster)?.files.keys() ?? [])].sort();
}

for (const purgeMode of ['Gracefully', 'Never'] as const) {
  test(`a ${purgeMode} task keeps the old copy on the evicted cluster with its replicas, its ConfigMap and its Namespace`, () => {
    const result = renderEvicted([task(purgeMode)]);
    assert.deepEqual(pathsOn(result, 'member2'), [namespace, config, web].sort());
    assert.equal(replicasOf(result, 'member2'), 2);
    // The schedule gave the evicted replicas to the others.
    assert.equal(replicasOf(result, 'member1'), 3);
    assert.equal(replicasOf(result, 'member3'), 3);
    const binding = result.bindings.find((b) => b.key === 'apps/Deployment/shop/web');
    assert.deepEqual(binding?.evictionTasks, [task(purgeMode)], 'the binding carries the task on');
    const configMap = yaml.load(result.clusters.get('member2')!.files.get(config)!) as {
      metadata: { annotations: Record<string, string> };
    };
    assert.equal(
      configMap.metadata.annotations['gitfleet.io/required-by'],
      'apps/Deployment/shop/web',
      'the ConfigMap on the evicted cluster still names the workload it is kept for',
    );
  });
}

test('a Directly task removes the objects from the evicted cluster at once', () => {
  const result = renderEvicted([task('Directly')]);
  assert.deepEqual(pathsOn(result, 'member2'), []);
  assert.equal(replicasOf(result, 'member1'), 3);
});

test('once the task is dropped, the objects leave the evicted cluster', () => {
  const kept = renderEvicted([task('Gracefully')]);
  assert.ok(kept.clusters.get('member2')?.files.has(web));
  const dropped = renderEvicted(undefined);
  assert.deepEqual(pathsOn(dropped, 'member2'), []);
  assert.equal(replicasOf(dropped, 'member1'), 3);
  assert.equal(replicasOf(dropped, 'member3'), 3);
  const binding = dropped.bindings.find((b) => b.key === 'apps/Deployment/shop/web');
  assert.equal(binding?.evictionTasks, undefined);
});
