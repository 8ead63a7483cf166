// What RBAC does not allow is found before the pass writes (check-permissions.ts), on the fake
// cluster with RBAC: a tenant agent's object outside its namespaces, or of a cluster-scoped
// kind (but for its own Namespace objects, which its RoleBindings cover), is refused by name with the verbs, resource and namespace, never sent, and reported;
// the rest is applied; prune does not send a delete it may not make; a Forbidden the reviews
// did not foresee is reported the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import type { AccessAnswer, AccessQuestion } from '../../../src/loops/agent/cluster-api.js';
import { commitClusterBranch } from '../../support/cluster-branch.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { fakeAgent } from './fake-agent.js';
import { FakeCluster } from './fake-cluster.js';

/** A tenant agent: anything in `shop` and in gitfleet-system (its inventory), nothing elsewhere. */
const tenant = (_verb: string, _kind: unknown, namespace: string) =>
  namespace === 'shop' || namespace === 'gitfleet-system';

function overwrite(o: KubeObject): KubeObject {
  return {
    ...o,
    metadata: { ...o.metadata, annotations: { 'work.karmada.io/conflict-resolution': 'overwrite' } },
  };
}

function withNamespaces(fake: FakeCluster, ...names: string[]): void {
  for (const name of names) fake.put(aNamespace(name));
}

test('a tenant agent refuses, by name, what lies outside its namespaces and applies the rest', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  withNamespaces(agent.fake, 'gitfleet-system', 'shop', 'billing');
  agent.fake.allows = tenant;
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('billing'),
    // Its own namespace, made by the cluster's admin: the tenant's RoleBinding there covers it.
    overwrite(aNamespace('shop')),
    aConfigMap('shop', 'web', { a: '1' }),
    aConfigMap('billing', 'ledger', { a: '1' }),
  ]);

  const result = await agent.pass();

  const byName = new Map(result.objects.map((o) => [o.ref.name, o]));
  assert.equal(byName.get('web')?.action, 'created');
  assert.equal(byName.get('shop')?.action, 'takenOver', byName.get('shop')?.message);
  assert.deepEqual(
    { action: byName.get('ledger')?.action, message: byName.get('ledger')?.message },
    {
      action: 'failed',
      message:
        "forbidden: the agent's credentials may not get, list, watch, create, patch configmaps in namespace billing",
    },
  );
  assert.equal(
    byName.get('billing')?.message,
    "forbidden: the agent's credentials may not get, list, watch, create, patch namespaces (cluster-scoped)",
  );
  assert.deepEqual(
    agent.fake.mutations().filter((m) => !m.includes('gitfleet-system')),
    ['apply v1/Namespace//shop', 'apply v1/ConfigMap/shop/web'],
    'nothing refused was sent',
  );
  assert.equal(result.fullyApplied, false);
  const report = await agent.report();
  assert.match(
    report?.objects.find((o) => o.ref.name === 'ledger')?.message ?? '',
    /may not .*configmaps in namespace billing/,
  );
  assert.equal(report?.objects.find((o) => o.ref.name === 'web')?.applied, true);
});

test('with a ClusterRole, a pass asks one review per verb and kind, across namespaces', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  agent.fake.allows = () => true;
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    aNamespace('web'),
    aConfigMap('shop', 'a', { a: '1' }),
    aConfigMap('web', 'b', { a: '1' }),
  ]);

  const result = await agent.pass();

  assert.equal(result.fullyApplied, true);
  assert.deepEqual(
    agent.fake.reviews.map((q) => `${q.verb} ${q.kind.kind} ${q.namespace}`).sort(),
    ['create', 'get', 'list', 'patch', 'watch'].flatMap((verb) =>
      ['ConfigMap', 'Namespace'].map((kind) => `${verb} ${kind} `),
    ),
  );
});

test('prune sends no delete the agent may not make, and reports it on the object', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  withNamespaces(agent.fake, 'gitfleet-system', 'shop');
  const web = aConfigMap('shop', 'web', { a: '1' });
  await commitClusterBranch(agent.gitdir, agent.cluster, [web, aConfigMap('shop', 'old', { a: '1' })]);
  assert.equal((await agent.pass()).fullyApplied, true);
  agent.fake.allows = (verb) => verb !== 'delete';
  await commitClusterBranch(agent.gitdir, agent.cluster, [web]);

  const result = await agent.pass();

  assert.deepEqual(
    agent.fake.mutations().filter((m) => m.startsWith('delete')),
    [],
  );
  assert.deepEqual(
    result.prune?.failed.map((f) => f.message),
    ["ConfigMap/shop/old: forbidden: the agent's credentials may not delete configmaps in namespace shop"],
  );
  assert.equal(result.fullyApplied, false);
  assert.ok(agent.fake.peek({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'old' }));
});

/** A cluster whose reviews get no answer: the agent finds out from the writes. */
class UnansweredReviews extends FakeCluster {
  override reviewAccess(questions: readonly AccessQuestion[]): Promise<AccessAnswer[]> {
    return Promise.resolve(questions.map(() => ({ type: 'unknown', message: 'timed out' })));
  }
}

test('a Forbidden the reviews did not foresee is reported on the object, and the rest applies', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  const fake = new UnansweredReviews();
  withNamespaces(fake, 'gitfleet-system', 'shop', 'billing');
  fake.allows = (verb, _kind, namespace) => verb !== 'patch' || namespace !== 'billing';
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aConfigMap('shop', 'web', { a: '1' }),
    aConfigMap('billing', 'ledger', { a: '1' }),
  ]);

  const result = await agent.pass({ client: fake });

  const ledger = result.objects.find((o) => o.ref.name === 'ledger');
  assert.equal(ledger?.action, 'failed');
  assert.match(
    ledger?.message ?? '',
    /^forbidden: apply: ConfigMap is forbidden: .* in the namespace "billing"/,
  );
  assert.equal(ledger?.retryable, true, 'RBAC may be fixed before the next pass');
  assert.equal(result.objects.find((o) => o.ref.name === 'web')?.action, 'created');
});

test('a tenant agent prunes in its namespaces, reading them one by one', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  withNamespaces(agent.fake, 'gitfleet-system', 'shop');
  agent.fake.allows = tenant;
  const web = aConfigMap('shop', 'web', { a: '1' });
  // A kind of which nothing stays on the branch: only prune reads it.
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'old', namespace: 'shop' } };
  await commitClusterBranch(agent.gitdir, agent.cluster, [web, secret]);
  assert.equal((await agent.pass()).fullyApplied, true);
  await commitClusterBranch(agent.gitdir, agent.cluster, [web]);

  const result = await agent.pass();

  assert.deepEqual(
    result.prune?.deleted.map((r) => `${r.kind}/${r.name}`),
    ['Secret/old'],
  );
  assert.equal(result.fullyApplied, true, JSON.stringify(result.prune?.plan.held));
});
