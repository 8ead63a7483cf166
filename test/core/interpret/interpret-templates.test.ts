// The interpretation stage and the render with a customized interpreter (here a fake one, so
// the core is tested alone): Karmada takes a customized kind's replicas and per-replica request
// from GetReplicas (pkg/resourceinterpreter/customized/declarative/configurable.go GetReplicas,
// used by pkg/detector/detector.go BuildResourceBinding), revises each cluster's copy with
// ReviseReplica (pkg/controllers/binding/common.go ensureWork), and takes a customized kind's
// dependencies from GetDependencies, resolving label selectors
// (pkg/dependenciesdistributor/dependencies_distributor.go). The scripts' order of choice is
// configmanager/manager.go LoadConfig and accessor.go Merge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interpretTemplates } from '../../../src/core/interpret/interpret-templates.js';
import { selectScripts } from '../../../src/core/interpret/select-scripts.js';
import type { Fleet } from '../../../src/core/model/fleet.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import type { ResourceInterpreter } from '../../../src/core/model/resource-interpreter.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet } from '../../../src/core/render/render-fleet.js';
import { clusterDoc, fileOf, mustLoad, policyDoc } from '../load/documents.js';

const pool = {
  apiVersion: 'example.com/v1',
  kind: 'WorkerPool',
  metadata: { name: 'orders', namespace: 'shop' },
  spec: { workers: 5, queue: 'orders' },
};

function fleetWith(extra: unknown[] = []): Fleet {
  return mustLoad([
    fileOf('clusters.yaml', clusterDoc('m1'), clusterDoc('m2')),
    fileOf('apps/pool.yaml', pool, ...extra),
    fileOf(
      'policies.yaml',
      policyDoc(
        'PropagationPolicy',
        'orders',
        {
          resourceSelectors: [{ apiVersion: 'example.com/v1', kind: 'WorkerPool', name: 'orders' }],
          propagateDeps: true,
          placement: {
            clusterAffinity: { clusterNames: ['m1', 'm2'] },
            replicaScheduling: {
              replicaSchedulingType: 'Divided',
              replicaDivisionPreference: 'Weighted',
              weightPreference: {
                staticWeightList: [
                  { targetCluster: { clusterNames: ['m1'] }, weight: 3 },
                  { targetCluster: { clusterNames: ['m2'] }, weight: 2 },
                ],
              },
            },
          },
        },
        'shop',
      ),
    ),
  ]);
}

// A fake interpreter for WorkerPools: spec.workers are the replicas, ReviseReplica sets them,
// the dependencies are the ConfigMap named after spec.queue and the Secrets labelled app=orders.
function fakeInterpreter(opts: { failReplicas?: boolean; replicas?: number } = {}): ResourceInterpreter {
  const ours = (o: KubeObject) => o.kind === 'WorkerPool';
  const spec = (o: KubeObject) => o.spec as { workers: number; queue: string };
  return {
    hookEnabled: (_v, kind, op) => kind === 'WorkerPool' && op !== 'Retain',
    scriptsKey: (_v, kind) => (kind === 'WorkerPool' ? 'k1' : ''),
    getReplicas: (o) =>
      !ours(o)
        ? undefined
        : opts.failReplicas
          ? {
              ok: false,
              error:
                'WorkerPool/shop/orders: ResourceInterpreterCustomization/pool InterpretReplica (GetReplicas): boom',
            }
          : {
              ok: true,
              value: {
                replicas: opts.replicas ?? spec(o).workers,
                requirements: { resourceRequest: { cpu: '250m', memory: '1Gi' } },
              },
            },
    reviseReplica: (o, replicas) =>
      ours(o) ? { ok: true, value: { ...o, spec: { ...spec(o), workers: replicas } } } : undefined,
    retain: () => undefined,
    reflectStatus: () => undefined,
    interpretHealth: () => undefined,
    aggregateStatus: () => undefined,
    getDependencies: (o) =>
      ours(o)
        ? {
            ok: true,
            value: [
              { apiVersion: 'v1', kind: 'ConfigMap', name: spec(o).queue },
              { apiVersion: 'v1', kind: 'Secret', labelSelector: { matchLabels: { app: 'orders' } } },
            ],
          }
        : undefined,
  };
}

const configMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'orders', namespace: 'shop' },
  data: { a: '1' },
};
const secret = (name: string, app: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'shop', labels: { app } },
  stringData: { k: 'v' },
});

function render(fleet: Fleet, interpreter: ResourceInterpreter) {
  const interpreted = interpretTemplates({ ...fleet, interpreter }).fleet;
  return { interpreted, result: renderFleet(freshSnapshot(interpreted)) };
}

test('A customized workload is divided by its GetReplicas replicas and each copy revised by ReviseReplica.', () => {
  const { interpreted, result } = render(fleetWith(), fakeInterpreter());
  const template = interpreted.templates.find((t) => t.ref.kind === 'WorkerPool')!;
  assert.deepEqual(template.interpreted?.replicas, {
    replicas: 5,
    request: { cpuMilli: 250, memoryBytes: 1024 ** 3, pods: 1 },
  });
  const path = 'shop/WorkerPool.example.com/orders.yaml';
  assert.match(result.clusters.get('m1')!.files.get(path)!, /workers: 3/);
  assert.match(result.clusters.get('m2')!.files.get(path)!, /workers: 2/);
});

test('Without a customization the same workload has no replicas to divide and goes whole to both clusters.', () => {
  const result = renderFleet(freshSnapshot(fleetWith()));
  const path = 'shop/WorkerPool.example.com/orders.yaml';
  assert.match(result.clusters.get('m1')!.files.get(path)!, /workers: 5/);
  assert.match(result.clusters.get('m2')!.files.get(path)!, /workers: 5/);
});

test('GetDependencies gives the followers: by name, and by label selector among the fleet templates.', () => {
  const { result } = render(
    fleetWith([configMap, secret('orders-db', 'orders'), secret('other', 'billing')]),
    fakeInterpreter(),
  );
  for (const cluster of ['m1', 'm2']) {
    const files = result.clusters.get(cluster)!.files;
    assert.ok(files.has('shop/ConfigMap/orders.yaml'), `${cluster} gets the ConfigMap`);
    assert.ok(files.has('shop/Secret/orders-db.yaml'), `${cluster} gets the selected Secret`);
    assert.ok(!files.has('shop/Secret/other.yaml'), `${cluster} does not get the other Secret`);
  }
});

test('A failing script holds the object with an error naming customization, operation and object; the rest renders.', () => {
  const { result } = render(fleetWith([configMap]), fakeInterpreter({ failReplicas: true }));
  const failures = result.diagnostics.filter((d) => d.severity === 'error');
  assert.ok(failures.length > 0);
  assert.ok(
    failures.every((d) =>
      /ResourceInterpreterCustomization\/pool InterpretReplica \(GetReplicas\): boom/.test(d.message),
    ),
    JSON.stringify(failures),
  );
  assert.ok(!result.clusters.get('m1')!.files.has('shop/WorkerPool.example.com/orders.yaml'));
});

for (const replicas of [-3, 2 ** 31, 1e18, 1.5, NaN]) {
  test(`GetReplicas giving ${replicas} is an error naming the object, which is not rendered; its ConfigMap still follows.`, () => {
    const { result } = render(fleetWith([configMap]), fakeInterpreter({ replicas }));
    const failures = result.diagnostics.filter((d) => d.severity === 'error');
    assert.ok(failures.length > 0, 'an error diagnostic');
    assert.ok(
      failures.every((d) => /^WorkerPool\/shop\/orders: .*GetReplicas.*replicas /.test(d.message)),
      JSON.stringify(failures),
    );
    assert.ok(!result.clusters.get('m1')!.files.has('shop/WorkerPool.example.com/orders.yaml'));
    assert.ok(result.clusters.get('m1')!.files.has('shop/ConfigMap/orders.yaml'));
  });
}

test('A template not customized stays the same object, and an unchanged one is reused from the memo.', () => {
  const fleet = fleetWith([configMap]);
  const interpreter = fakeInterpreter();
  const first = interpretTemplates({ ...fleet, interpreter });
  const second = interpretTemplates({ ...fleet, interpreter }, first.memo);
  const cm = fleet.templates.find((t) => t.ref.kind === 'ConfigMap')!;
  assert.ok(first.fleet.templates.includes(cm));
  const pools = [first, second].map((r) => r.fleet.templates.find((t) => t.ref.kind === 'WorkerPool'));
  assert.equal(pools[0], pools[1]);
});

test('Scripts are chosen in name order, the first non-empty one per operation; dependency scripts all run.', () => {
  const target = { apiVersion: 'example.com/v1', kind: 'WorkerPool' };
  const source = { file: 'i.yaml', index: 0 };
  const kinds = selectScripts([
    { name: 'b', target, scripts: { InterpretHealth: 'b-health', InterpretDependency: 'b-deps' }, source },
    { name: 'a', target, scripts: { InterpretHealth: '', InterpretDependency: 'a-deps' }, source },
    {
      name: 'c',
      target: { ...target, apiVersion: 'example.com/v2' },
      scripts: { InterpretHealth: 'v2' },
      source,
    },
  ]);
  const v1 = kinds.get('example.com/v1 WorkerPool')!;
  assert.deepEqual(v1.single.InterpretHealth, { customization: 'b', script: 'b-health' });
  assert.deepEqual(
    v1.dependencies.map((d) => d.customization),
    ['a', 'b'],
  );
  assert.deepEqual(kinds.get('example.com/v2 WorkerPool')!.single.InterpretHealth?.script, 'v2');
});

test('A changed ReviseReplica script alone re-renders through the memo: the output equals a fresh render.', () => {
  const fleet = fleetWith();
  const first = interpretTemplates({ ...fleet, interpreter: fakeInterpreter() }).fleet;
  const memo = renderFleet(freshSnapshot(first)).memo;
  const base = fakeInterpreter();
  const changed: ResourceInterpreter = {
    ...base,
    scriptsKey: (_v, kind) => (kind === 'WorkerPool' ? 'k2' : ''),
    reviseReplica: (o, replicas) =>
      o.kind === 'WorkerPool'
        ? { ok: true, value: { ...o, spec: { ...(o.spec as object), workers: replicas, revisedBy: 'k2' } } }
        : undefined,
  };
  const second = interpretTemplates({ ...fleet, interpreter: changed }).fleet;
  const reused = renderFleet(freshSnapshot(second), { memo });
  const fresh = renderFleet(freshSnapshot(second));
  const path = 'shop/WorkerPool.example.com/orders.yaml';
  assert.match(fresh.clusters.get('m1')!.files.get(path)!, /revisedBy: k2/);
  for (const name of ['m1', 'm2'])
    assert.deepEqual([...reused.clusters.get(name)!.files], [...fresh.clusters.get(name)!.files], name);
});
