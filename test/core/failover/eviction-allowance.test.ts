import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Binding } from '../../../src/core/model/binding.js';
import type { FailoverDecision } from '../../../src/core/model/failover.js';
import { evictedClusterOf, evictionsByCluster } from '../../../src/core/failover/eviction-allowance.js';
import { aPlacement } from '../builders.js';

function binding(kind: string, name: string, requiredBy: string[] = []): Binding {
  const apiVersion = kind === 'Deployment' ? 'apps/v1' : 'v1';
  return {
    name: `${name}-${kind.toLowerCase()}`,
    resource: { apiVersion, kind, namespace: 'shop', name },
    key: `${kind === 'Deployment' ? 'apps/' : ''}${kind}/shop/${name}`,
    origin: requiredBy.length > 0 ? 'dependency' : 'policy',
    replicas: 0,
    placement: aPlacement(),
    propagateDeps: true,
    conflictResolution: 'Abort',
    preserveResourcesOnDeletion: false,
    schedule: { type: 'Scheduled', clusters: [{ name: 'member1', replicas: 0 }] },
    requiredBy,
    overrides: 'all',
  };
}

const web = binding('Deployment', 'web');
const config = binding('ConfigMap', 'web-config', [web.key]);
const other = binding('ConfigMap', 'other');

const decision = (type: FailoverDecision['type'], cluster: string, key = web.key): FailoverDecision => ({
  type,
  cluster,
  binding: key,
  reason: type === 'Evicted' ? 'TaintUntolerated' : 'HealthyOnNewClusters',
  message: `${key} from ${cluster}: ${type === 'Evicted' ? 'TaintUntolerated' : 'HealthyOnNewClusters'} by TaintManager`,
});

test('an eviction allows the paths of the binding and of the followers that leave with it, on that cluster only; the cluster the replicas land on gets the line and no allowance', () => {
  const got = evictionsByCluster([decision('Evicted', 'member2')], [web, config, other]);
  assert.deepEqual([...got.keys()].sort(), ['member1', 'member2']);
  assert.deepEqual([...got.get('member1')!.paths], [], 'web now runs on member1: nothing allowed there');
  assert.deepEqual(got.get('member1')!.trailers, got.get('member2')!.trailers);
  assert.deepEqual([...got.get('member2')!.paths].sort(), [
    'shop/ConfigMap/web-config.yaml',
    'shop/Deployment.apps/web.yaml',
  ]);
  assert.deepEqual(got.get('member2')!.trailers, [
    'Gitfleet-Eviction: apps/Deployment/shop/web from member2: TaintUntolerated by TaintManager',
  ]);
});

test('a finished task allows the deletion too; taints, judgements and deferrals allow nothing', () => {
  const taint: FailoverDecision = {
    type: 'TaintAdded',
    cluster: 'member3',
    reason: 'x',
    message: 'member3 +t',
  };
  const deferred = { ...decision('Evicted', 'member3'), type: 'EvictionDeferred' as const };
  const got = evictionsByCluster([decision('EvictionDone', 'member2'), taint, deferred], [web, config]);
  assert.deepEqual([...got.keys()], ['member2']);
  assert.deepEqual(got.get('member2')!.trailers, [
    'Gitfleet-Eviction-Done: apps/Deployment/shop/web from member2: HealthyOnNewClusters by TaintManager',
  ]);
});

test("the cluster an eviction trailer's value names", () => {
  assert.equal(evictedClusterOf('apps/Deployment/shop/web from member-2: TaintUntolerated'), 'member-2');
  assert.equal(evictedClusterOf('member2 +cluster.karmada.io/unreachable:NoExecute'), undefined);
});
