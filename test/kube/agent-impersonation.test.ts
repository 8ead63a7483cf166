// A Tenant's `impersonate` on a real member cluster (docs/tenants.md#impersonation): the agent
// applies the objects the render marked `gitfleet.io/apply-as` as the tenant's ServiceAccount,
// so the member cluster's RBAC for that ServiceAccount decides too. deploy/tenant-impersonation
// is applied for the tenant's namespace (the ServiceAccount bound to `edit` there, and the agent's
// right to act as it and nothing else): the tenant's ConfigMap is applied; its Role (RBAC, which
// `edit` does not grant) and its ConfigMap in another namespace are refused by the member cluster,
// naming the ServiceAccount, and never written; the same Role without the annotation (the
// platform's) is applied by the agent itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { applyAsAnnotation, tenantAnnotation } from '../../src/core/model/gitfleet-keys.js';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { repoRoot } from '../clusters/harness/ensure-binaries.js';
import {
  aConfigMap,
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
  for (const [name, resource, namespace] of [
    ['tenant-role', 'roles', ns],
    ['ledger', 'configmaps', other],
  ] as const) {
    const result = byName.get(name);
    assert.equal(result?.applied, false, name);
    assert.ok(
      result?.message?.includes(
        `forbidden: apply: ${resource}${resource === 'roles' ? '.rbac.authorization.k8s.io' : ''} "${name}" is forbidden: User "${tenantAccount(ns)}" cannot patch resource`,
      ),
      result?.message,
    );
    assert.ok(result?.message?.includes(`in the namespace "${namespace}"`), result?.message);
  }
  assert.equal(kubectl(['get', 'configmap', '-n', ns, 'web', '-o', 'jsonpath={.data.a}']), '1');
  assert.equal(kubectl(['get', 'role', '-n', ns, 'tenant-role', '--ignore-not-found', '-o', 'name']), '');
  assert.equal(kubectl(['get', 'configmap', '-n', other, 'ledger', '--ignore-not-found', '-o', 'name']), '');
  assert.equal(
    kubectl(['get', 'role', '-n', ns, 'platform-role', '-o', 'name']).trim(),
    'role.rbac.authorization.k8s.io/platform-role',
  );
});
