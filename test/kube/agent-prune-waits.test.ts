// Pruning that has to wait on the cluster: an object held by a finalizer is reported
// terminating and stays in the inventory until it is gone; a Namespace the agent applied is
// not deleted while it holds objects the agent does not own (deleting it would delete them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { decodeInventory } from '../../src/loops/agent/inventory-store.js';
import { inventoryName, inventoryNamespace } from '../../src/core/apply-plan/agent-keys.js';
import {
  aConfigMap,
  aNamespace,
  commitClusterBranch,
  kubectl,
  refOf,
  testAgent,
  type TestAgent,
} from './agent-fixture.js';
import { eventually, inNamespace, testKubeConfig, uniqueName } from './test-clusters.js';

async function inventoryNames(agent: TestAgent): Promise<string[]> {
  const cm = await agent.client.get({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    namespace: inventoryNamespace,
    name: inventoryName(agent.cluster),
  });
  const read = decodeInventory(cm!);
  return read.type === 'ok' ? [...read.inventory.values()].map((e) => e.ref.name).sort() : [];
}

test('an object held by a finalizer is reported terminating and stays in the inventory until it is gone', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'agent-fin', async (ns) => {
    const held: KubeObject = {
      ...aConfigMap(ns, 'held', { a: '1' }),
      metadata: { name: 'held', namespace: ns, finalizers: ['gitfleet.test/hold'] },
    };
    const stays = aConfigMap(ns, 'stays', { b: '1' });
    await commitClusterBranch(agent.gitdir, agent.cluster, [held, stays]);
    assert.equal((await agent.pass()).fullyApplied, true);

    await commitClusterBranch(agent.gitdir, agent.cluster, [stays]);
    const pass = await agent.pass();
    const message = `ConfigMap/${ns}/held: deleted, still terminating (finalizers: gitfleet.test/hold); kept in the inventory until it is gone`;
    assert.deepEqual(pass.prune?.terminating, [{ ref: refOf(held), message }]);
    assert.ok((await agent.client.get(refOf(held)))?.metadata['deletionTimestamp'], 'it is Terminating');
    assert.deepEqual(await inventoryNames(agent), ['held', 'stays']);
    const pruned = (await agent.report())?.conditions?.find((c) => c.type === 'Pruned');
    assert.deepEqual([pruned?.reason, pruned?.message], ['Terminating', message]);

    const again = await agent.pass();
    assert.deepEqual(
      again.prune?.plan.held.map((h) => [h.ref.name, h.reason]),
      [['held', 'Terminating']],
    );
    assert.equal(again.requests.mutating, 0, 'not deleted again, nothing rewritten');
    assert.equal(again.status.type, 'unchanged', 'the same report, no new status commit');

    kubectl([
      'patch',
      'configmap',
      'held',
      '-n',
      ns,
      '--type',
      'merge',
      '-p',
      '{"metadata":{"finalizers":null}}',
    ]);
    await eventually('the ConfigMap to be gone', async () =>
      (await agent.client.get(refOf(held))) ? undefined : true,
    );
    const gone = await agent.pass();
    assert.deepEqual(
      gone.prune?.plan.left.map((l) => [l.ref.name, l.reason]),
      [['held', 'Gone']],
    );
    assert.deepEqual(await inventoryNames(agent), ['stays']);
    assert.equal((await agent.report())?.conditions?.find((c) => c.type === 'Pruned')?.reason, 'Complete');
  });
});

test('a Namespace holding objects the agent does not own is kept until they are gone', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  const ns = uniqueName('agent-nskeep');
  const ours = aConfigMap(ns, 'ours', { a: '1' });
  await commitClusterBranch(agent.gitdir, agent.cluster, [aNamespace(ns), ours]);
  assert.equal((await agent.pass()).fullyApplied, true);
  kubectl(['create', 'configmap', 'theirs', '-n', ns, '--from-literal=k=v']);

  await commitClusterBranch(agent.gitdir, agent.cluster, []);
  const pass = await agent.pass({ allowDeletions: true });
  assert.deepEqual(
    pass.prune?.deleted.map((r) => r.name),
    ['ours'],
  );
  const message = `Namespace/${ns}: not pruned: it holds 1 object(s) the agent does not own (ConfigMap/${ns}/theirs); kept until they are gone`;
  assert.deepEqual(
    pass.prune?.plan.held.map((h) => [h.reason, h.message]),
    [['NamespaceNotEmpty', message]],
  );
  assert.ok(
    await agent.client.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name: 'theirs' }),
    'theirs stays',
  );
  const pruned = (await agent.report())?.conditions?.find((c) => c.type === 'Pruned');
  assert.deepEqual([pruned?.reason, pruned?.message], ['NamespaceNotEmpty', message]);

  kubectl(['delete', 'configmap', 'theirs', '-n', ns]);
  const emptied = await agent.pass({ allowDeletions: true });
  assert.deepEqual(
    emptied.prune?.deleted.map((r) => r.name),
    [ns],
  );
  assert.ok(
    (await agent.client.get(refOf(aNamespace(ns))))?.metadata['deletionTimestamp'] !== undefined ||
      (await agent.client.get(refOf(aNamespace(ns)))) === undefined,
    'the Namespace is being deleted',
  );
});
