// The hub and a tenant's breach (docs/tenants.md): the refused copy is an error diagnostic of the
// pass and the cluster's branch keeps what it had for that object, as for any render error.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseFleet, policyYaml } from '../../core/tenancy/tenant-fleet.js';
import {
  branchFiles,
  commitChange,
  fleetRepoWith,
  hubPass,
  removeFleetRepos,
  rendered,
} from './hub-fixture.js';

after(removeFleetRepos);

test('a tenant narrowed to fewer clusters: the refused cluster keeps the object, with a TenantRefused error', async () => {
  const files = baseFleet();
  files.set('apps/a/policy.yaml', policyYaml('a', 'shop', ['east', 'west']));
  const tenants = files.get('platform/tenants.yaml')!.replace('names: [east]', 'names: [east, west]');
  files.set('platform/tenants.yaml', tenants);
  const repo = fleetRepoWith(Object.fromEntries(files), { bare: false });
  const first = rendered(await hubPass(repo));
  assert.deepEqual(
    first.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  const west = 'gitfleet/clusters/west';
  const before = branchFiles(repo, west).get('shop/ConfigMap/a.yaml');
  assert.match(before ?? '', /gitfleet\.io\/tenant: team-a/);
  commitChange(repo, 'team-a leaves west (its policy still says west)', (work) => {
    const path = join(work, 'platform/tenants.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace('names: [east, west]', 'names: [east]'));
  });
  const second = rendered(await hubPass(repo));
  assert.deepEqual(
    second.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.subject, d.cluster]),
    [['TenantRefused', 'ConfigMap/shop/a', 'west']],
  );
  assert.equal(branchFiles(repo, west).get('shop/ConfigMap/a.yaml'), before);
  assert.ok(branchFiles(repo, 'gitfleet/clusters/east').has('shop/ConfigMap/a.yaml'));
});
