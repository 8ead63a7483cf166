// A pass with nothing new (find-unchanged.ts): the agent's kinds are listed by metadata only and
// nothing is read whole, while the report stays what it was; an object written since (a
// controller's status update) is read whole and reported on what it is now; a kind whose
// metadata list fails is listed whole by the apply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeApiError } from '../../../src/adapters/kube/kube-error.js';
import { commitClusterBranch, refOf } from '../../support/cluster-branch.js';
import { aConfigMap, aDeployment, aNamespace } from '../../support/kube-objects.js';
import { fakeAgent } from './fake-agent.js';

const branch = [aNamespace('shop'), aDeployment('shop', 'web'), aConfigMap('shop', 'settings', { a: '1' })];
const web = refOf(aDeployment('shop', 'web'));

/** Returns each object's health on the status branch, by kind/name. */
async function healths(agent: ReturnType<typeof fakeAgent>): Promise<Record<string, string>> {
  const report = await agent.report();
  return Object.fromEntries((report?.objects ?? []).map((o) => [`${o.ref.kind}/${o.ref.name}`, o.health]));
}

test('a pass with nothing new lists the agent kinds by metadata only, reads nothing whole and keeps the report', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, branch);
  await agent.pass();
  const reported = await healths(agent);
  const from = agent.fake.calls.length;

  const again = await agent.pass();

  const calls = agent.fake.calls.slice(from);
  const lists = calls
    .filter((c) => c.verb === 'list')
    .map((c) => `${c.key} ${c.metadataOnly ? 'metadata' : 'whole'}`);
  assert.deepEqual(lists.sort(), [
    'apps/v1/Deployment metadata',
    'v1/ConfigMap metadata',
    'v1/Namespace whole',
  ]);
  assert.deepEqual(
    calls.filter((c) => c.verb === 'get').map((c) => c.key),
    ['v1/ConfigMap/gitfleet-system/gitfleet-inventory-m1'],
    'only the inventory is read by name',
  );
  assert.ok(again.objects.every((o) => o.action === 'unchanged'));
  assert.equal(again.status.type, 'unchanged');
  assert.deepEqual(await healths(agent), reported);
  assert.equal(reported['Deployment/web'], 'Progressing', 'the fake runs no controller: no replica is up');
});

test('an object written since the last pass is read whole and reported on what it is now', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, branch);
  await agent.pass();
  // A controller reports the rollout done: a new resourceVersion, the manifest's fields untouched.
  agent.fake.edit(web, (o) => {
    o['status'] = { observedGeneration: 1, replicas: 1, updatedReplicas: 1, availableReplicas: 1 };
  });
  const from = agent.fake.calls.length;

  const again = await agent.pass();

  const reads = agent.fake.calls.slice(from).filter((c) => c.verb === 'get');
  assert.ok(
    reads.some((c) => c.key === 'apps/v1/Deployment/shop/web'),
    'the Deployment is read whole by name',
  );
  assert.equal(again.requests.mutating, 0, 'a status update is not drift');
  assert.equal(again.status.type, 'written');
  assert.equal((await healths(agent))['Deployment/web'], 'Healthy');
});

test('a kind whose metadata list fails is listed whole by the apply and applied as usual', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, branch);
  await agent.pass();
  const list = agent.fake.list.bind(agent.fake);
  agent.fake.list = (kind, opts) =>
    opts?.metadataOnly && kind.kind === 'ConfigMap'
      ? Promise.reject(new KubeApiError('ConfigMap', { code: 500, message: 'metadata lists are broken' }))
      : list(kind, opts);
  const from = agent.fake.calls.length;

  const again = await agent.pass();

  assert.equal(again.fullyApplied, true);
  assert.ok(again.objects.every((o) => o.action === 'unchanged'));
  assert.ok(
    agent.fake.calls
      .slice(from)
      .some((c) => c.verb === 'list' && c.key === 'v1/ConfigMap' && !c.metadataOnly),
    'ConfigMaps are listed whole',
  );
});
