// A Tenant's `impersonate` on a real member cluster (docs/tenants.md#impersonation): the agent
// applies the objects the render marked `gitfleet.io/apply-as` as the tenant's ServiceAccount,
// so the member cluster's RBAC for that ServiceAccount decides too. deploy/tenant-impersonation
// is applied for the tenant's namespace (the ServiceAccount bound to `edit` there, and the agent's
// right to act as it and nothing else): the tenant's ConfigMap is applied; its Role (RBAC, which
// `edit` does not grant) and its ConfigMap in another namespace are refused by the member cluster,
// naming the ServiceAccount, and never written; the same Role without the annotation (the
// platform's) is applied by the agent itself. The agent's access review asks as the tenant: the
// refusal comes before any write, from a SelfSubjectAccessReview sent as the ServiceAccount. And
// prune deletes a tenant's object as the tenant: once the tenant may no longer delete in its
// namespace, the member cluster refuses the deletion, though the agent itself could delete it.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { applyAsAnnotation, tenantAnnotation } from '../../src/core/model/gitfleet-keys.js';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { repoRoot } from '../clusters/harness/ensure-binaries.js';
import { recreateAnnotation } from '../../src/core/apply-plan/agent-keys.js';
import {
  aConfigMap,
  aDeployment,
  aNamespace,
  commitClusterBranch,
  deleteNamespaceEverywhere,
  kubectl,
  testAgent,
} from './agent-fixture.js';
import { uniqueName } from './test-clusters.js';

const tenantAccount = (ns: string) => `system:serviceaccount:${ns}:gitfleet-tenant`;

function asTenant(object: KubeObject, ns: string): KubeObject {
  const annotations = { [tenantAnnotation]: 'team-a', [applyAsAnnotation]: tenantAccount(ns) };
  return { ...object, metadata: { ...object.metadata, annotations } };
}

/** An agent, and a namespace of its own with the tenant's ServiceAccount and rights (deploy/tenant-impersonation); both go after the test. */
function tenantNamespace(t: TestContext): { agent: ReturnType<typeof testAgent>; ns: string } {
  const agent = testAgent();
  const ns = uniqueName('tenant');
  t.after(async () => {
    await agent.dispose();
    deleteNamespaceEverywhere(ns, ['member1']);
  });
  kubectl(['create', 'namespace', ns]);
  kubectl(['apply', '-n', ns, '-k', join(repoRoot(), 'deploy/tenant-impersonation')]);
  return { agent, ns };
}

const aRole = (ns: string, name: string): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name, namespace: ns },
  rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
});

test('the member cluster refuses a tenant object its ServiceAccount may not write, and applies the rest', async (t) => {
  const agent = testAgent();
  const ns = uniqueName('tenant');
  const other = uniqueName('other');
  t.after(async () => {
    await agent.dispose();
    deleteNamespaceEverywhere(ns, ['member1']);
    deleteNamespaceEverywhere(other, ['member1']);
  });
  kubectl(['create', 'namespace', ns]);
  kubectl(['create', 'namespace', other]);
  kubectl(['apply', '-n', ns, '-k', join(repoRoot(), 'deploy/tenant-impersonation')]);
  // The shipped RBAC lets the agent act as the tenant's ServiceAccount, and as no other.
  const canI = (what: string, namespace: string) =>
    kubectl(
      [
        'auth',
        'can-i',
        'impersonate',
        what,
        '-n',
        namespace,
        '--as',
        'system:serviceaccount:gitfleet-system:gitfleet-agent',
      ],
      {},
    ).trim();
  assert.equal(canI('serviceaccount/gitfleet-tenant', ns), 'yes');
  // `kubectl auth can-i` exits 1 for no.
  assert.throws(() => canI('serviceaccount/default', ns), /Command failed/);

  const objects = [
    aNamespace(ns),
    aNamespace(other),
    asTenant(aConfigMap(ns, 'web', { a: '1' }), ns),
    asTenant(aRole(ns, 'tenant-role'), ns),
    asTenant(aConfigMap(other, 'ledger', { a: '1' }), ns),
    aRole(ns, 'platform-role'),
  ];
  await commitClusterBranch(agent.gitdir, agent.cluster, objects);
  const pass = await agent.pass();
  assert.equal(pass.type, 'applied');
  const report = await agent.report();
  const byName = new Map(report!.objects.map((o) => [o.ref.name, o]));
  assert.equal(byName.get('web')?.applied, true, byName.get('web')?.message);
  assert.equal(byName.get('platform-role')?.applied, true, byName.get('platform-role')?.message);
  // Refused by the access review asked as the tenant, before any write (the agent itself may write both).
  for (const [name, resource, namespace] of [
    ['tenant-role', 'roles.rbac.authorization.k8s.io', ns],
    ['ledger', 'configmaps', other],
  ] as const) {
    const result = byName.get(name);
    assert.equal(result?.applied, false, name);
    assert.equal(
      result?.message,
      `forbidden: ${tenantAccount(ns)}, whom the agent applies it as, may not create, patch ${resource} in namespace ${namespace}`,
    );
  }
  assert.equal(kubectl(['get', 'configmap', '-n', ns, 'web', '-o', 'jsonpath={.data.a}']), '1');
  assert.equal(kubectl(['get', 'role', '-n', ns, 'tenant-role', '--ignore-not-found', '-o', 'name']), '');
  assert.equal(kubectl(['get', 'configmap', '-n', other, 'ledger', '--ignore-not-found', '-o', 'name']), '');
  assert.equal(
    kubectl(['get', 'role', '-n', ns, 'platform-role', '-o', 'name']).trim(),
    'role.rbac.authorization.k8s.io/platform-role',
  );
});

test('prune deletes a tenant object as the tenant: the access review, asked as the tenant, refuses what it may no longer delete', async (t) => {
  const { agent, ns } = tenantNamespace(t);
  const keep = asTenant(aConfigMap(ns, 'keep', { a: '1' }), ns);
  const gone = asTenant(aConfigMap(ns, 'gone', { a: '1' }), ns);
  // The namespace is made above, not by the agent: the branch holds only the tenant's objects.
  await commitClusterBranch(agent.gitdir, agent.cluster, [keep, gone]);
  await agent.pass();
  const first = await agent.report();
  assert.deepEqual(
    first!.objects.filter((o) => !o.applied).map((o) => o.message),
    [],
  );
  // The tenant loses its rights in the namespace; the agent keeps its own (and may still act as the tenant).
  kubectl(['delete', 'rolebinding', 'gitfleet-tenant', '-n', ns]);
  await commitClusterBranch(agent.gitdir, agent.cluster, [keep]);
  const refused = await agent.pass();
  assert.deepEqual(refused.prune?.deleted ?? [], [], 'the agent did not delete it as itself');
  // Refused by the SelfSubjectAccessReview asked impersonating the tenant, before any delete is
  // sent (a refused DELETE would say "delete failed"; the agent itself may still delete it).
  assert.equal(
    refused.prune?.failed[0]?.message,
    `ConfigMap/${ns}/gone: forbidden: ${tenantAccount(ns)}, whom the agent applies it as, may not delete configmaps in namespace ${ns}`,
  );
  assert.equal(kubectl(['get', 'configmap', '-n', ns, 'gone', '-o', 'name']).trim(), 'configmap/gone');
  // Given its rights back, the tenant's deletion goes through.
  kubectl(['apply', '-n', ns, '-k', join(repoRoot(), 'deploy/tenant-impersonation')]);
  const pruned = await agent.pass();
  assert.deepEqual(
    (pruned.prune?.deleted ?? []).map((r) => r.name),
    ['gone'],
  );
  assert.equal(kubectl(['get', 'configmap', '-n', ns, 'gone', '--ignore-not-found', '-o', 'name']), '');
});

test('a recreate on an immutable change deletes as the tenant: a tenant that may not delete keeps its object, and says so', async (t) => {
  const { agent, ns } = tenantNamespace(t);
  const web = asTenant(aDeployment(ns, 'web'), ns);
  await commitClusterBranch(agent.gitdir, agent.cluster, [web]);
  assert.equal((await agent.pass()).fullyApplied, true);
  // The tenant may write Deployments but no longer delete them; the agent itself still may.
  kubectl(['delete', 'rolebinding', 'gitfleet-tenant', '-n', ns]);
  kubectl([
    'create',
    'role',
    'writer',
    '-n',
    ns,
    '--verb=get,list,watch,create,patch,update',
    '--resource=deployments.apps',
  ]);
  kubectl([
    'create',
    'rolebinding',
    'writer',
    '-n',
    ns,
    '--role=writer',
    `--serviceaccount=${ns}:gitfleet-tenant`,
  ]);
  const spec = web.spec as { template: { spec: unknown } };
  const changed: KubeObject = {
    ...web,
    metadata: { ...web.metadata, annotations: { ...web.metadata.annotations, [recreateAnnotation]: 'true' } },
    spec: {
      ...(web.spec as Record<string, unknown>),
      selector: { matchLabels: { app: 'web-v2' } },
      template: { metadata: { labels: { app: 'web-v2' } }, spec: spec.template.spec },
    },
  };
  await commitClusterBranch(agent.gitdir, agent.cluster, [changed]);
  const pass = await agent.pass();
  const outcome = pass.objects.find((o) => o.ref.kind === 'Deployment')!;
  assert.notEqual(outcome.action, 'recreated', 'not deleted as the agent and made again');
  assert.match(outcome.message ?? '', /recreate: delete failed: .*gitfleet-tenant.* cannot delete/);
  const selector = JSON.parse(
    kubectl(['get', 'deployment', 'web', '-n', ns, '-o', 'jsonpath={.spec.selector}']),
  );
  assert.deepEqual(
    selector,
    { matchLabels: { app: 'web' } },
    'the tenant’s Deployment is still there as it was',
  );
});
