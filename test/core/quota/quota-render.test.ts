// FederatedResourceQuota at render time, with Karmada as the oracle: the sync controller's
// ResourceQuotas (federated_resource_quota_sync_controller.go and its test), the usage of a
// binding (pkg/util/helper/binding_test.go TestCalculateResourceUsage) and the ResourceBinding
// webhook's overall limit (pkg/webhook/resourcebinding/validating_test.go), here a render error
// that holds the template on every cluster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import type { RenderResult } from '../../../src/core/render/render-fleet.js';
import { clustersYaml, deploymentYaml, placementYaml, quotaYaml, renderQuotaFleet } from './quota-fleet.js';

const RQ = 'shop/ResourceQuota/team-quota.yaml';

interface Rendered {
  metadata: {
    name: string;
    namespace: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
  };
  spec: unknown;
}

function readObject(text: string): Rendered {
  return yaml.load(text) as Rendered;
}

function fleetWith(files: Record<string, string>): Map<string, string> {
  return new Map([['platform/clusters.yaml', clustersYaml], ...Object.entries(files)]);
}

function errors(result: RenderResult): string[] {
  return result.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => `${d.code} ${d.subject} @${d.cluster}: ${d.message}`);
}

test('Each cluster of spec.staticAssignments gets a ResourceQuota named as the quota, with its hard limits and the quota labels; the others get none.', () => {
  const result = renderQuotaFleet(
    fleetWith({
      'quotas/shop.yaml': quotaYaml({
        overall: { cpu: '10', memory: '10Gi' },
        assignments: [
          ['m1', { cpu: '1', memory: '1Gi' }],
          ['m2', { cpu: '1.5', memory: '2Gi' }],
        ],
      }),
    }),
  );
  assert.deepEqual(errors(result), []);
  const m1 = readObject(result.clusters.get('m1')!.files.get(RQ)!);
  assert.deepEqual(m1.spec, { hard: { cpu: '1', memory: '1Gi' } });
  assert.equal(m1.metadata.namespace, 'shop');
  assert.equal(m1.metadata.name, 'team-quota');
  assert.equal(m1.metadata.labels['federatedresourcequota.karmada.io/namespace'], 'shop');
  assert.equal(m1.metadata.labels['federatedresourcequota.karmada.io/name'], 'team-quota');
  assert.equal(m1.metadata.annotations['gitfleet.io/source'], 'quotas/shop.yaml');
  assert.deepEqual(readObject(result.clusters.get('m2')!.files.get(RQ)!).spec, {
    hard: { cpu: '1.5', memory: '2Gi' },
  });
  assert.equal(result.clusters.get('m3')!.files.get(RQ), undefined, 'no assignment, no ResourceQuota');
  // The namespace the ResourceQuota lives in goes with it, and only there.
  assert.ok(result.clusters.get('m1')!.files.has('_cluster/Namespace/shop.yaml'));
  assert.ok(!result.clusters.get('m3')!.files.has('_cluster/Namespace/shop.yaml'));
});

test('A quota without static assignments makes no ResourceQuota anywhere (Karmada since v1.14).', () => {
  const result = renderQuotaFleet(fleetWith({ 'quotas/shop.yaml': quotaYaml({ overall: { cpu: '10' } }) }));
  for (const c of ['m1', 'm2', 'm3']) assert.equal(result.clusters.get(c)!.files.get(RQ), undefined);
});

test('An assignment to a cluster no Cluster registers makes nothing, as Karmada builds Works for listed clusters only.', () => {
  const result = renderQuotaFleet(
    fleetWith({
      'quotas/shop.yaml': quotaYaml({
        overall: { cpu: '10' },
        assignments: [
          ['gone', { cpu: '1' }],
          ['m3', { cpu: '2' }],
        ],
      }),
    }),
  );
  assert.deepEqual(errors(result), []);
  assert.deepEqual(readObject(result.clusters.get('m3')!.files.get(RQ)!).spec, { hard: { cpu: '2' } });
  assert.equal(result.clusters.get('m1')!.files.get(RQ), undefined);
});

test('Usage is the scheduled replicas over all clusters × one replica’s request: 3 + 2 replicas of 1 cpu and 2Gi use 5 and 10Gi (TestCalculateResourceUsage).', () => {
  const result = renderQuotaFleet(
    fleetWith({
      'quotas/shop.yaml': quotaYaml({ overall: { cpu: '5', memory: '10Gi' } }),
      'apps/web.yaml': deploymentYaml('web', 5, { cpu: '1', memory: '2Gi' }),
      'apps/policy.yaml': placementYaml('web', ['m1', 'm2'], [3, 2]),
    }),
  );
  assert.deepEqual(errors(result), []);
  const usage = result.quotas!.find((q) => q.quota.name === 'team-quota')!;
  assert.deepEqual(Object.fromEntries(usage.used), {
    cpu: 5_000_000_000n,
    memory: 10n * 2n ** 30n * 1_000_000_000n,
  });
  assert.match(result.clusters.get('m1')!.files.get('shop/Deployment.apps/web.yaml')!, /replicas: 3/);
});

test('A placement past the overall limit is a QuotaExceeded error naming the template and the quota, held on every cluster (create quota exceeded should deny).', () => {
  const result = renderQuotaFleet(
    fleetWith({
      'quotas/shop.yaml': quotaYaml({ overall: { cpu: '150m' } }),
      'apps/web.yaml': deploymentYaml('web', 2, { cpu: '100m' }),
      'apps/policy.yaml': placementYaml('web', ['m1', 'm2']),
    }),
  );
  // Duplicated on two clusters: 2 replicas each, 4 × 100m = 400m.
  assert.deepEqual(errors(result), [
    'QuotaExceeded Deployment/shop/web @m1: exceeds FederatedResourceQuota/shop/team-quota (quotas/shop.yaml) for resource cpu: requested sum 400m, limit 150m (this placement asks 400m; the others placed use 0)',
    'QuotaExceeded Deployment/shop/web @m2: exceeds FederatedResourceQuota/shop/team-quota (quotas/shop.yaml) for resource cpu: requested sum 400m, limit 150m (this placement asks 400m; the others placed use 0)',
  ]);
  for (const c of ['m1', 'm2']) {
    const out = result.clusters.get(c)!;
    assert.equal(out.files.get('shop/Deployment.apps/web.yaml'), undefined);
    assert.ok(out.held.has('shop/Deployment.apps/web.yaml'), 'held: the cluster keeps what it has');
  }
});

test('Within the limit nothing is refused; the quota counts only the resources its overall names (filterResourceListByOverall).', () => {
  const result = renderQuotaFleet(
    fleetWith({
      'quotas/shop.yaml': quotaYaml({ overall: { cpu: '200m' } }),
      'apps/web.yaml': deploymentYaml('web', 1, { cpu: '100m', memory: '64Gi' }),
      'apps/policy.yaml': placementYaml('web', ['m1', 'm2']),
    }),
  );
  assert.deepEqual(errors(result), []);
  assert.deepEqual(Object.fromEntries(result.quotas![0]!.used), { cpu: 200_000_000n });
});

test('The templates placed before come first: a new one that does not fit is refused, the others keep their place.', () => {
  const fleet = fleetWith({
    'quotas/shop.yaml': quotaYaml({ overall: { cpu: '1' } }),
    'apps/b.yaml': deploymentYaml('b', 1, { cpu: '600m' }),
    'apps/b-policy.yaml': placementYaml('b', ['m1']),
  });
  const first = renderQuotaFleet(fleet);
  assert.deepEqual(errors(first), []);
  fleet.set('apps/a.yaml', deploymentYaml('a', 1, { cpu: '600m' }));
  fleet.set('apps/a-policy.yaml', placementYaml('a', ['m2']));
  // Fresh, `a` comes first by key; with b's placement recorded, b is admitted first.
  const fresh = renderQuotaFleet(fleet);
  assert.deepEqual(
    errors(fresh).map((e) => e.split(':')[0]),
    ['QuotaExceeded Deployment/shop/b @m1'],
  );
  const next = renderQuotaFleet(fleet, (s) => ({ ...s, previous: first.placements }));
  assert.deepEqual(
    errors(next).map((e) => e.split(':')[0]),
    ['QuotaExceeded Deployment/shop/a @m2'],
  );
  assert.ok(next.clusters.get('m1')!.files.has('shop/Deployment.apps/b.yaml'));
});

test('A template in another namespace, or without a pod template, counts nothing against the quota.', () => {
  const other = deploymentYaml('x', 9, { cpu: '9' }).replace('namespace: shop', 'namespace: other');
  const result = renderQuotaFleet(
    fleetWith({
      'quotas/shop.yaml': quotaYaml({ overall: { cpu: '1' } }),
      'apps/x.yaml': other,
      'apps/x-policy.yaml': placementYaml('x', ['m1']).replace('namespace: shop', 'namespace: other'),
      'apps/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: shop}\ndata: {k: v}\n',
      'apps/cm-policy.yaml':
        'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: c, namespace: shop}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n  placement: {clusterAffinity: {clusterNames: [m1]}}\n',
    }),
  );
  assert.deepEqual(errors(result), []);
  assert.deepEqual(Object.fromEntries(result.quotas![0]!.used), {});
});
