// Ownership names the fleet, on the fake cluster: an inventory and objects written before fleet
// identities stay the fleet's that holds them and are stamped at once; an agent of another fleet
// repository with the same cluster name keeps its own inventory and deletes nothing of theirs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fleetLabel } from '../../../src/core/apply-plan/agent-keys.js';
import { createAgentMemory } from '../../../src/loops/agent/agent-memory.js';
import { localAgentRepo } from '../../../src/loops/agent/agent-repo.js';
import { commitClusterBranch, makeBareRepo } from '../../support/cluster-branch.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { fakeAgent } from './fake-agent.js';

const inventoryRef = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  namespace: 'gitfleet-system',
  name,
});

test("an older inventory is stamped with the fleet, and another fleet's agent of the same cluster name deletes nothing", async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  const objects = [aNamespace('shop'), ...['a', 'b', 'c'].map((n) => aConfigMap('shop', n, { n }))];
  await commitClusterBranch(agent.gitdir, 'm1', objects, 'render: the first fleet\n');
  assert.equal((await agent.pass()).fullyApplied, true);
  const fleet = agent.memory.fleet!;
  assert.match(fleet, /^[0-9a-f]{40}$/, "the fleet is the cluster branch's root commit");
  const a = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'a' };
  assert.equal(agent.fake.peek(a)?.metadata.labels?.[fleetLabel], fleet);

  // As an agent from before fleet identities left them: no fleet on the inventory, nor on a.
  agent.fake.edit(inventoryRef('gitfleet-inventory-m1'), (o) => {
    delete (o['data'] as Record<string, string>)['fleet'];
  });
  agent.fake.edit(a, (o) => {
    delete o.metadata.labels![fleetLabel];
  });
  const restarted = await agent.pass({ memory: createAgentMemory() });
  assert.equal(restarted.fullyApplied, true);
  const inventory = agent.fake.peek(inventoryRef('gitfleet-inventory-m1'));
  assert.equal((inventory?.['data'] as Record<string, string>)['fleet'], fleet, 'the inventory is stamped');
  assert.equal(agent.fake.peek(a)?.metadata.labels?.[fleetLabel], fleet, 'a is re-marked');

  // Another fleet repository, a cluster of the same name, the same API server.
  const other = makeBareRepo();
  t.after(() => other.dispose());
  await commitClusterBranch(
    other.dir,
    'm1',
    [aConfigMap('shop', 'theirs', { x: '1' })],
    'render: fleet two\n',
  );
  const second = await agent.pass({
    repo: localAgentRepo(other.dir),
    memory: createAgentMemory(),
    allowDeletions: true,
  });
  assert.deepEqual(second.prune?.deleted ?? [], [], 'nothing of the first fleet is deleted');
  for (const name of ['a', 'b', 'c']) assert.ok(agent.fake.peek({ ...a, name }), `${name} is still there`);
  const names = agent.fake
    .mutations()
    .filter((m) => m.includes('gitfleet-system/gitfleet-inventory-m1-'))
    .map((m) => m.replace(/^apply v1\/ConfigMap\/gitfleet-system\//, ''));
  assert.ok(names.length > 0, 'the second fleet keeps an inventory of its own');
});
