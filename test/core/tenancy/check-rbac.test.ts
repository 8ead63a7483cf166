// The RBAC a tenant never creates (core/tenancy/check-rbac.ts), as a table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRbacEscalation } from '../../../src/core/tenancy/check-rbac.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';

const rbac = (kind: string, body: Record<string, unknown>): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind,
  metadata: { name: 'x', namespace: 'shop' },
  ...body,
});

const cases: { name: string; given: KubeObject; want: RegExp | undefined }[] = [
  {
    name: 'a ClusterRole is refused',
    given: rbac('ClusterRole', { rules: [] }),
    want: /grants rights in every namespace/,
  },
  {
    name: 'a ClusterRoleBinding is refused',
    given: rbac('ClusterRoleBinding', {}),
    want: /ClusterRoleBinding grants/,
  },
  {
    name: 'a RoleBinding to cluster-admin is refused',
    given: rbac('RoleBinding', { roleRef: { kind: 'ClusterRole', name: 'cluster-admin' } }),
    want: /roleRef ClusterRole\/cluster-admin/,
  },
  {
    name: 'a RoleBinding to edit is allowed',
    given: rbac('RoleBinding', { roleRef: { kind: 'ClusterRole', name: 'edit' } }),
    want: undefined,
  },
  {
    name: 'a RoleBinding to a Role is allowed',
    given: rbac('RoleBinding', { roleRef: { kind: 'Role', name: 'any' } }),
    want: undefined,
  },
  {
    name: 'a Role granting escalate is refused',
    given: rbac('Role', {
      rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] }],
    }),
    want: /rules\[0\] grants escalate/,
  },
  {
    name: 'a Role granting impersonate is refused',
    given: rbac('Role', {
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
        { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
      ],
    }),
    want: /rules\[1\] grants impersonate/,
  },
  {
    name: 'a Role granting every verb on every group is refused',
    given: rbac('Role', { rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }),
    want: /every verb on RBAC objects/,
  },
  {
    name: 'a Role granting every verb on apps is allowed',
    given: rbac('Role', { rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }] }),
    want: undefined,
  },
  {
    name: 'a ConfigMap is not RBAC',
    given: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
    want: undefined,
  },
];

for (const c of cases) {
  test(`RBAC: ${c.name}.`, () => {
    const got = checkRbacEscalation(c.given);
    if (c.want === undefined) assert.equal(got, undefined);
    else assert.match(got ?? '', c.want);
  });
}
