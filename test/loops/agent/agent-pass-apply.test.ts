// A pass on the fake cluster: the staged apply order (CRDs, then Namespaces, then the rest in
// kind order, custom resources last), which the fake enforces as an API server does (no
// object before its Namespace, no custom resource before its CRD), and a second pass on the
// same branch that makes no mutating request, with or without the agent's memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inventoryName, inventoryNamespace } from '../../../src/core/apply-plan/agent-keys.js';
import { createAgentMemory } from '../../../src/loops/agent/agent-memory.js';
import { commitClusterBranch } from '../../support/cluster-branch.js';
import { aConfigMap, aDeployment, aNamespace, aWidget, aWidgetCrd } from '../../support/kube-objects.js';
import { fakeAgent } from './fake-agent.js';

const group = 'shop.example.com';
const inventory = `v1/ConfigMap/${inventoryNamespace}/${inventoryName('m1')}`;

/** The branch of these tests, listed in an order the agent must not follow. */
const branch = [
  aWidget(group, 'shop', 'w1', { size: 1 }),
  aDeployment('shop', 'web'),
  aConfigMap('shop', 'settings', { mode: 'git' }),
  aNamespace('shop'),
  aWidgetCrd(group),
];

test('a first pass applies CRDs, then Namespaces, then the rest in kind order, after writing the inventory', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, branch);

  const result = await agent.pass();

  assert.equal(result.fullyApplied, true, JSON.stringify(result.objects.map((o) => o.message)));
  assert.deepEqual(agent.fake.mutations(), [
    `apply v1/Namespace//${inventoryNamespace}`,
    `apply ${inventory}`,
    `apply apiextensions.k8s.io/v1/CustomResourceDefinition//widgets.${group}`,
    'apply v1/Namespace//shop',
    'apply v1/ConfigMap/shop/settings',
    'apply apps/v1/Deployment/shop/web',
    `apply ${group}/v1/Widget/shop/w1`,
    `apply ${inventory}`,
  ]);
  assert.deepEqual(
    result.objects.map((o) => [o.ref.kind, o.action]),
    [
      ['CustomResourceDefinition', 'created'],
      ['Namespace', 'created'],
      ['ConfigMap', 'created'],
      ['Deployment', 'created'],
      ['Widget', 'created'],
    ],
  );
  const calls = agent.fake.calls.map((c) => c.verb);
  assert.ok(
    calls.indexOf('refreshDiscovery') < calls.lastIndexOf('apply'),
    'discovery is read again after the CRD, before the custom resource',
  );
  assert.equal((await agent.report())?.appliedCommit, result.commit);
});

test('a second pass on the same branch makes no mutating request and writes no status commit', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, branch);
  await agent.pass();
  const before = agent.fake.mutations().length;

  const again = await agent.pass();

  assert.deepEqual(agent.fake.mutations().slice(before), [], 'no apply, patch or delete');
  assert.equal(again.requests.mutating, 0);
  assert.equal(again.requests.dryRun, 0, 'nothing was written since the agent saw it: no dry run either');
  assert.ok(again.objects.every((o) => o.action === 'unchanged'));
  assert.equal(again.status.type, 'unchanged');
});

test('an agent restarted without memory checks with dry runs only and writes nothing', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, branch);
  await agent.pass();
  // Something else wrote the ConfigMap without changing what the agent applies (a new resourceVersion).
  agent.fake.edit({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' }, (o) => {
    o.metadata.annotations = { 'example.com/touched': 'yes' };
  });
  const before = agent.fake.mutations().length;

  const restarted = await agent.pass({ memory: createAgentMemory() });

  assert.deepEqual(agent.fake.mutations().slice(before), []);
  assert.equal(restarted.requests.dryRun, 1, 'only the object written since the inventory recorded it');
  assert.ok(restarted.objects.every((o) => o.action === 'unchanged'));
});

test('a changed object is applied alone; the others are not touched', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, branch);
  await agent.pass();
  const before = agent.fake.mutations().length;
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    ...branch.filter((o) => o.kind !== 'ConfigMap'),
    aConfigMap('shop', 'settings', { mode: 'changed' }),
  ]);

  const result = await agent.pass();

  assert.deepEqual(agent.fake.mutations().slice(before), [
    'apply v1/ConfigMap/shop/settings',
    `apply ${inventory}`,
  ]);
  assert.deepEqual(
    result.objects.filter((o) => o.action !== 'unchanged').map((o) => `${o.ref.name} ${o.action}`),
    ['settings updated'],
  );
  const live = agent.fake.peek({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' });
  assert.deepEqual(live?.['data'], { mode: 'changed' });
});

test('an object whose Namespace does not exist fails alone, as data, and the rest is applied', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    aConfigMap('shop', 'settings', { mode: 'git' }),
    aConfigMap('elsewhere', 'lost', { mode: 'git' }),
  ]);

  const result = await agent.pass();

  assert.equal(result.fullyApplied, false);
  assert.deepEqual(
    result.objects.map((o) => `${o.ref.namespace}/${o.ref.name} ${o.action}`),
    ['/shop created', 'elsewhere/lost failed', 'shop/settings created'],
  );
  assert.match(result.objects[1]?.message ?? '', /namespaces "elsewhere" not found/);
  assert.equal(result.objects[1]?.retryable, true, 'the Namespace may come later');
});
