// Tenants at render time (docs/tenants.md#rules): each copy of a tenant's template is checked
// against its Tenant; a refused copy is a TenantRefused error naming the tenant, the rule and
// the file, and is held on that cluster (the hub keeps what the cluster has for it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet } from '../../../src/core/render/render-fleet.js';
import {
  baseFleet,
  configMapYaml,
  errorLines,
  filesOf,
  policyYaml,
  renderTenantFleet,
} from './tenant-fleet.js';

test('Each tenant places its objects where its Tenant allows: no error, tenant annotations added.', () => {
  const result = renderTenantFleet(baseFleet());
  assert.deepEqual(errorLines(result), []);
  const a = result.clusters.get('east')!.files.get('shop/ConfigMap/a.yaml')!;
  assert.match(a, /gitfleet\.io\/tenant: team-a/);
  assert.match(a, /gitfleet\.io\/apply-as: system:serviceaccount:shop:gitfleet-tenant/);
  const b = result.clusters.get('west')!.files.get('blog/ConfigMap/b.yaml')!;
  assert.match(b, /gitfleet\.io\/tenant: team-b/);
  assert.doesNotMatch(b, /apply-as/);
});

test('A template cannot name its own tenant or identity: the annotations come from the Tenant only.', () => {
  const fleet = baseFleet();
  fleet.set(
    'apps/b/config.yaml',
    configMapYaml('b', 'blog').replace(
      'metadata: {',
      "metadata: {annotations: {gitfleet.io/apply-as: 'system:serviceaccount:kube-system:admin', gitfleet.io/tenant: team-a}, ",
    ),
  );
  fleet.set(
    'platform/cm.yaml',
    configMapYaml('p', 'ops').replace('metadata: {', 'metadata: {annotations: {gitfleet.io/apply-as: x}, '),
  );
  fleet.set('platform/policy.yaml', policyYaml('ops', 'ops', ['west']));
  const result = renderTenantFleet(fleet);
  assert.deepEqual(errorLines(result), []);
  const b = result.clusters.get('west')!.files.get('blog/ConfigMap/b.yaml')!;
  assert.doesNotMatch(b, /apply-as|team-a/);
  assert.match(b, /gitfleet\.io\/tenant: team-b/);
  assert.doesNotMatch(
    result.clusters.get('west')!.files.get('ops/ConfigMap/p.yaml')!,
    /apply-as|gitfleet\.io\/tenant/,
  );
});

const cases: { name: string; change: (fleet: Map<string, string>) => void; want: string[] }[] = [
  {
    name: 'a placement on a cluster outside the tenant’s clusters is refused there only (rule clusters)',
    change: (f) => f.set('apps/a/policy.yaml', policyYaml('a', 'shop', ['east', 'lab'])),
    want: [
      'TenantRefused ConfigMap/shop/a @lab: refused by Tenant/team-a (rule clusters): cluster lab is not one of its clusters (apps/a/config.yaml)',
    ],
  },
  {
    name: 'a cluster selector decides for a tenant without names (rule clusters)',
    change: (f) => f.set('apps/b/policy.yaml', policyYaml('b', 'blog', ['west', 'lab'])),
    want: [
      'TenantRefused ConfigMap/blog/b @lab: refused by Tenant/team-b (rule clusters): cluster lab is not one of its clusters (apps/b/config.yaml)',
    ],
  },
  {
    name: 'a denied kind is refused on each cluster (rule kinds)',
    change: (f) => {
      f.set(
        'apps/b/secret.yaml',
        'apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: blog}\nstringData: {k: v}\n',
      );
      f.set('apps/b/policy.yaml', policyYaml('b', 'blog', ['east'], ['ConfigMap', 'Secret']));
    },
    want: [
      'TenantRefused Secret/blog/s @east: refused by Tenant/team-b (rule kinds): Secret is in its deniedKinds (apps/b/secret.yaml)',
    ],
  },
  {
    name: 'an object in another namespace, placed by the platform, is refused (rule namespaces)',
    change: (f) => {
      f.set('apps/a/stray.yaml', configMapYaml('stray', 'ops'));
      f.set('platform/policy.yaml', policyYaml('everything', 'ops', ['east']));
    },
    want: [
      'TenantRefused ConfigMap/ops/stray @east: refused by Tenant/team-a (rule namespaces): namespace ops is not one of its namespaces (shop) (apps/a/stray.yaml)',
    ],
  },
  {
    name: 'a tenant’s policy claiming a template that is not the tenant’s is refused (rule policies)',
    change: (f) => f.set('platform/shop-config.yaml', configMapYaml('platform', 'shop')),
    want: [
      "TenantRefused ConfigMap/shop/platform @east: refused by Tenant/team-a (rule policies): PropagationPolicy/shop/a (apps/a/policy.yaml) claims a template that is not the tenant's (platform/shop-config.yaml)",
    ],
  },
  {
    name: 'a tenant’s OverridePolicy changing a template that is not the tenant’s is refused (rule policies)',
    change: (f) => {
      f.set('platform/shop-config.yaml', configMapYaml('platform', 'shop'));
      f.set(
        'platform/policy.yaml',
        policyYaml('platform', 'shop', ['east']).replace(
          'kind: ConfigMap}',
          'kind: ConfigMap, name: platform}',
        ) + 'priority: 5\n'.replace(/^/, '  ').replace('  priority', '  priority'),
      );
      f.set(
        'apps/a/override.yaml',
        'apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: o, namespace: shop}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n  overrideRules: [{overriders: {labelsOverrider: [{operator: add, value: {x: y}}]}}]\n',
      );
    },
    want: [
      "TenantRefused ConfigMap/shop/platform @east: refused by Tenant/team-a (rule policies): OverridePolicy/shop/o (apps/a/override.yaml) overrides a template that is not the tenant's (platform/shop-config.yaml)",
    ],
  },
  {
    name: 'a tenant’s object in another tenant’s namespace is refused at that tenant’s policy first (rule policies)',
    change: (f) => f.set('apps/a/stray.yaml', configMapYaml('stray', 'blog')),
    want: [
      "TenantRefused ConfigMap/blog/stray @east: refused by Tenant/team-b (rule policies): PropagationPolicy/blog/b (apps/b/policy.yaml) claims a template that is not the tenant's (apps/a/stray.yaml)",
      "TenantRefused ConfigMap/blog/stray @west: refused by Tenant/team-b (rule policies): PropagationPolicy/blog/b (apps/b/policy.yaml) claims a template that is not the tenant's (apps/a/stray.yaml)",
    ],
  },
  {
    name: 'a cluster-scoped object is refused unless clusterScoped (rule clusterScoped)',
    change: (f) => {
      f.set(
        'apps/a/pc.yaml',
        'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: top}\nvalue: 1000000\n',
      );
      f.set(
        'platform/cpp.yaml',
        'apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: pc}\nspec:\n  resourceSelectors: [{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass}]\n  placement: {clusterAffinity: {clusterNames: [east]}}\n',
      );
    },
    want: [
      'TenantRefused PriorityClass/top @east: refused by Tenant/team-a (rule clusterScoped): scheduling.k8s.io/PriorityClass is cluster-scoped and the tenant has clusterScoped: false (apps/a/pc.yaml)',
    ],
  },
];

for (const c of cases) {
  test(`Tenants: ${c.name}; the copy is held, the others render.`, () => {
    const fleet = baseFleet();
    c.change(fleet);
    const result = renderTenantFleet(fleet);
    assert.deepEqual(errorLines(result), c.want);
    for (const line of c.want) {
      const [, kindNs, cluster] = /^TenantRefused (\S+) @(\S+):/.exec(line)!;
      const [kind, ns, name] = kindNs!.split('/');
      const path =
        name === undefined ? `_cluster/${kind}.scheduling.k8s.io/${ns}.yaml` : `${ns}/${kind}/${name}.yaml`;
      const output = result.clusters.get(cluster!)!;
      assert.equal(output.files.has(path), false, `${path} is not rendered on ${cluster}`);
      assert.match(output.held.get(path) ?? '', /refused by Tenant/, `${path} is held on ${cluster}`);
    }
    assert.ok(result.clusters.get('east')!.files.has('shop/ConfigMap/a.yaml'));
  });
}

test('Karmada’s rule stays: a PropagationPolicy selecting another namespace does not load.', () => {
  const fleet = baseFleet();
  fleet.set(
    'apps/a/policy.yaml',
    policyYaml('a', 'shop', ['east']).replace('kind: ConfigMap}', 'kind: ConfigMap, namespace: blog}'),
  );
  const loaded = loadFleet(filesOf(fleet));
  assert.equal(loaded.ok, false);
  assert.match(
    loaded.ok ? '' : (loaded.errors[0]?.message ?? ''),
    /^PropagationPolicy\/shop\/a: spec.resourceSelectors\[0\].namespace: "blog": namespace of resource selector must be the same as the namespace of the policy/,
  );
});

test('A change to a Tenant renders the copies again: a copy allowed before is refused after, and back.', () => {
  const fleet = baseFleet();
  fleet.set('apps/a/policy.yaml', policyYaml('a', 'shop', ['east', 'west']));
  const first = loadFleet(filesOf(fleet));
  assert.ok(first.ok);
  const one = renderFleet(freshSnapshot(first.fleet));
  assert.equal(errorLines(one).length, 1);
  fleet.set(
    'platform/tenants.yaml',
    fleet.get('platform/tenants.yaml')!.replace('names: [east]', 'names: [east, west]'),
  );
  const second = loadFleet(filesOf(fleet), { memo: first.memo });
  assert.ok(second.ok);
  const two = renderFleet(freshSnapshot(second.fleet), { memo: one.memo });
  assert.deepEqual(errorLines(two), []);
  assert.ok(two.clusters.get('west')!.files.has('shop/ConfigMap/a.yaml'));
  fleet.set(
    'platform/tenants.yaml',
    fleet.get('platform/tenants.yaml')!.replace('names: [east, west]', 'names: [east]'),
  );
  const third = loadFleet(filesOf(fleet), { memo: second.memo });
  assert.ok(third.ok);
  const three = renderFleet(freshSnapshot(third.fleet), { memo: two.memo });
  assert.deepEqual(errorLines(three), errorLines(one));
  assert.equal(three.clusters.get('west')!.files.has('shop/ConfigMap/a.yaml'), false);
});
