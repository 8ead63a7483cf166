// Tenants at load time (docs/tenants.md#rules): the Tenant document's fields, who owns each file,
// and the documents a tenant's files may not hold. A breach fails the load, naming the file,
// the tenant and the rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, formatLoadError } from '../../../src/core/load/load-fleet.js';
import { baseFleet, clustersYaml, filesOf, policyYaml } from './tenant-fleet.js';

function loadErrors(fleet: ReadonlyMap<string, string>): string[] {
  const loaded = loadFleet(filesOf(fleet));
  return loaded.ok ? [] : loaded.errors.map((e) => `${e.code} ${formatLoadError(e)}`);
}

test('The base fleet with two tenants loads, with each Tenant typed and defaulted.', () => {
  const loaded = loadFleet(filesOf(baseFleet()));
  assert.ok(loaded.ok);
  assert.deepEqual(
    loaded.fleet.tenants?.map((t) => ({ ...t, source: t.source.file })),
    [
      {
        name: 'team-a',
        paths: ['apps/a/'],
        namespaces: ['shop'],
        clusters: { names: ['east'] },
        deniedKinds: [],
        clusterScoped: false,
        impersonate: { serviceAccount: { namespace: 'shop', name: 'gitfleet-tenant' } },
        source: 'platform/tenants.yaml',
      },
      {
        name: 'team-b',
        paths: ['apps/b/**'],
        namespaces: ['blog'],
        clusters: { names: [], selector: { matchLabels: { env: 'prod' } } },
        deniedKinds: [{ group: '', kind: 'Secret' }],
        clusterScoped: false,
        source: 'platform/tenants.yaml',
      },
    ],
  );
});

test('A Tenant with bad fields names each field, and an unknown field is an error.', () => {
  const fleet = baseFleet();
  fleet.set(
    'platform/bad.yaml',
    `apiVersion: gitfleet.io/v1alpha1
kind: Tenant
metadata: {name: bad}
spec:
  paths: ['**']
  namespaces: [Not_A_Label]
  impersonate: {serviceAccount: just-a-name}
  clusterScope: true
`,
  );
  const errors = loadErrors(fleet);
  assert.ok(
    errors.some((e) => e.includes('Tenant/bad: spec.paths[0]: "**" is the whole repository')),
    errors.join('\n'),
  );
  assert.ok(errors.some((e) => e.includes('Tenant/bad: spec.namespaces[0]:')));
  assert.ok(
    errors.some((e) => e.includes('spec.impersonate.serviceAccount: "just-a-name": must be NAMESPACE/NAME')),
  );
  assert.ok(errors.some((e) => e.startsWith('UnknownField') && e.includes('clusterScope')));
});

test('Two tenants claiming one path is an error: the same pattern, and a file both patterns hold.', () => {
  const fleet = baseFleet();
  fleet.set(
    'platform/tenants.yaml',
    fleet
      .get('platform/tenants.yaml')!
      .replace("paths: ['apps/b/**']", "paths: ['apps/b/**', 'apps/a/*.yaml']"),
  );
  const errors = loadErrors(fleet);
  assert.deepEqual(
    errors.filter((e) => e.includes('rule paths')),
    [
      'InvalidTenant apps/a/config.yaml: apps/a/config.yaml: owned by Tenant/team-a and Tenant/team-b (rule paths): a file has one tenant',
      'InvalidTenant apps/a/policy.yaml: apps/a/policy.yaml: owned by Tenant/team-a and Tenant/team-b (rule paths): a file has one tenant',
    ],
  );
  const same = baseFleet();
  same.set(
    'platform/tenants.yaml',
    same.get('platform/tenants.yaml')!.replace("paths: ['apps/b/**']", 'paths: [/apps/a]'),
  );
  assert.deepEqual(
    loadErrors(same).filter((e) => e.includes('is claimed by')),
    [
      'InvalidTenant platform/tenants.yaml#1:10: Tenant/team-b: spec.paths: "/apps/a" is claimed by Tenant/team-a too (rule paths)',
    ],
  );
});

test('A tenant file may not hold a Tenant, a Cluster or a cluster-wide policy, nor a policy outside its namespaces.', () => {
  const fleet = baseFleet();
  fleet.set(
    'apps/a/more.yaml',
    [
      `apiVersion: gitfleet.io/v1alpha1\nkind: Tenant\nmetadata: {name: sneaky}\nspec: {paths: [apps/c], namespaces: [kube-system], clusters: {selector: {}}, clusterScoped: true}\n`,
      clustersYaml.split('---\n')[0]!.replace('east', 'mine'),
      policyYaml('other', 'blog', ['west']),
      policyYaml('cluster-wide', 'x', ['west'])
        .replace('kind: PropagationPolicy', 'kind: ClusterPropagationPolicy')
        .replace(', namespace: x', ''),
    ].join('---\n'),
  );
  assert.deepEqual(loadErrors(fleet), [
    'InvalidTenant apps/a/more.yaml#0:1: Tenant/sneaky: in apps/a/more.yaml of Tenant/team-a (rule fleet-wide): only the platform (a file outside every tenant) may hold it',
    'InvalidTenant apps/a/more.yaml#1:6: Cluster/mine: in apps/a/more.yaml of Tenant/team-a (rule fleet-wide): only the platform (a file outside every tenant) may hold it',
    'InvalidTenant apps/a/more.yaml#2:10: PropagationPolicy/blog/other: in apps/a/more.yaml of Tenant/team-a (rule namespaces): its namespaces are shop',
    'InvalidTenant apps/a/more.yaml#3:17: ClusterPropagationPolicy/cluster-wide: in apps/a/more.yaml of Tenant/team-a (rule cluster-policies): a cluster-wide policy selects every tenant’s templates',
  ]);
});

test('A fleet without Tenants loads as before: no tenants field.', () => {
  const fleet = baseFleet();
  fleet.delete('platform/tenants.yaml');
  const loaded = loadFleet(filesOf(fleet));
  assert.ok(loaded.ok);
  assert.equal('tenants' in loaded.fleet, false);
});
