// Prune decisions on the fake cluster: an object that left the branch is deleted; one the
// agent never applied (not in its inventory) is not, even with the agent's marker on it; the
// mass-deletion guard refuses a branch that would delete too much, and deletes nothing; an
// object held by a finalizer stays in the inventory until it is gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterLabel } from '../../../src/core/apply-plan/agent-keys.js';
import { commitClusterBranch } from '../../support/cluster-branch.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { fakeAgent } from './fake-agent.js';
import { createAgentMemory } from '../../../src/loops/agent/agent-memory.js';

const settings = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' };

test('an object removed from the branch is deleted, and only that one', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  const kept = [aNamespace('shop'), aConfigMap('shop', 'web', { a: '1' })];
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    ...kept,
    aConfigMap('shop', 'settings', { a: '1' }),
  ]);
  await agent.pass();
  await commitClusterBranch(agent.gitdir, agent.cluster, kept);

  const result = await agent.pass();

  assert.deepEqual(
    agent.fake.mutations().filter((m) => m.startsWith('delete')),
    ['delete v1/ConfigMap/shop/settings'],
  );
  assert.equal(agent.fake.peek(settings), undefined);
  assert.deepEqual(
    result.prune?.deleted.map((r) => r.name),
    ['settings'],
  );
  assert.equal(result.fullyApplied, true);
  const again = await agent.pass();
  assert.deepEqual(again.prune?.plan.deletions, [], 'it left the inventory: nothing to prune any more');
});

test('an object the agent never applied is not deleted, even when it carries the agent marker', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  agent.fake.put({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'stray', namespace: 'shop', labels: { [clusterLabel]: agent.cluster } },
    data: { made: 'by hand' },
  });
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    aConfigMap('shop', 'web', { a: '1' }),
  ]);

  await agent.pass();
  await agent.pass();

  assert.deepEqual(
    agent.fake.mutations().filter((m) => m.startsWith('delete')),
    [],
  );
  assert.ok(agent.fake.peek({ ...settings, name: 'stray' }), 'still there');
});

test('the mass-deletion guard refuses a branch that drops most objects, and nothing is deleted', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  const maps = Array.from({ length: 12 }, (_, i) => aConfigMap('shop', `cm-${i}`, { i: String(i) }));
  await commitClusterBranch(agent.gitdir, agent.cluster, [aNamespace('shop'), ...maps]);
  await agent.pass();
  await commitClusterBranch(agent.gitdir, agent.cluster, [aNamespace('shop'), ...maps.slice(0, 2)]);

  const result = await agent.pass();

  assert.deepEqual(
    agent.fake.mutations().filter((m) => m.startsWith('delete')),
    [],
  );
  assert.equal(agent.fake.keys().filter((k) => k.includes('/ConfigMap/shop/cm-')).length, 12);
  assert.match(result.prune?.plan.guardRefusal ?? '', /10 of 13/);
  assert.equal(result.fullyApplied, false);
  const pruned = (await agent.report())?.conditions?.find((c) => c.type === 'Pruned');
  assert.equal(pruned?.reason, 'MassDeletionGuard');

  const allowed = await agent.pass({ allowDeletions: true });
  assert.equal(allowed.prune?.deleted.length, 10, 'allowed explicitly, the deletions go ahead');
});

test('a pass run again after a refused mass deletion refuses it again: the deletions are still pending', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  const maps = Array.from({ length: 12 }, (_, i) => aConfigMap('shop', `cm-${i}`, { i: String(i) }));
  await commitClusterBranch(agent.gitdir, agent.cluster, [aNamespace('shop'), ...maps]);
  await agent.pass();
  await commitClusterBranch(agent.gitdir, agent.cluster, [aNamespace('shop'), ...maps.slice(0, 2)]);
  const first = await agent.pass();
  assert.match(first.prune?.plan.guardRefusal ?? '', /10 of 13/);

  for (const run of ['second', 'third (a restarted agent, as agent --once is)']) {
    const again = await agent.pass(run.startsWith('third') ? { memory: createAgentMemory() } : {});
    assert.match(again.prune?.plan.guardRefusal ?? '', /10 of 13/, `${run} pass`);
    assert.equal(again.fullyApplied, false, `${run} pass`);
    const pruned = (await agent.report())?.conditions?.find((c) => c.type === 'Pruned');
    assert.equal(pruned?.reason, 'MassDeletionGuard', `${run} pass`);
  }
  assert.equal(agent.fake.keys().filter((k) => k.includes('/ConfigMap/shop/cm-')).length, 12);
});

test('an object held by a finalizer stays in the inventory until it is gone', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  const kept = [aNamespace('shop'), aConfigMap('shop', 'web', { a: '1' })];
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    ...kept,
    aConfigMap('shop', 'settings', { a: '1' }),
  ]);
  await agent.pass();
  agent.fake.edit(settings, (o) => {
    o.metadata['finalizers'] = ['example.com/hold'];
  });
  await commitClusterBranch(agent.gitdir, agent.cluster, kept);

  const held = await agent.pass();
  assert.deepEqual(
    held.prune?.terminating.map((h) => h.ref.name),
    ['settings'],
  );
  assert.equal(held.fullyApplied, true, 'waiting on the cluster is not a failure');
  assert.ok(agent.fake.peek(settings)?.metadata['deletionTimestamp']);

  agent.fake.edit(settings, (o) => {
    o.metadata['finalizers'] = [];
  });
  assert.equal(agent.fake.peek(settings), undefined, 'its last finalizer removed, it is gone');
  const gone = await agent.pass();
  assert.deepEqual(gone.prune?.terminating, []);
  assert.deepEqual(gone.prune?.plan.deletions, []);
});
