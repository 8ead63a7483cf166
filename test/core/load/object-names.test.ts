import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, type LoadErrorCode } from '../../../src/core/load/load-fleet.js';
import { fileOf } from './documents.js';

const object = (apiVersion: string, kind: string, name: unknown, namespace?: unknown) => ({
  apiVersion,
  kind,
  metadata: namespace === undefined ? { name } : { name, namespace },
});

interface Row {
  name: string;
  given: unknown;
  want: 'valid' | RegExp;
  /** The error code when refused; InvalidName unless given. */
  code?: LoadErrorCode;
}

const rows: Row[] = [
  {
    name: 'A lowercase name with dashes and dots is valid.',
    given: object('v1', 'ConfigMap', 'web-config.v2', 'shop'),
    want: 'valid',
  },
  {
    name: 'A name with a slash is refused: it would add a directory to the output layout.',
    given: object('v1', 'ConfigMap', 'a/b', 'shop'),
    want: /metadata\.name "a\/b"/,
  },
  {
    name: 'A name that climbs out of its directory is refused.',
    given: object('v1', 'ConfigMap', '../../etc', 'shop'),
    want: /metadata\.name "\.\.\/\.\.\/etc"/,
  },
  {
    name: 'The name ".." is refused.',
    given: object('v1', 'ConfigMap', '..', 'shop'),
    want: /metadata\.name "\.\."/,
  },
  {
    name: 'A name with capitals is refused.',
    given: object('apps/v1', 'Deployment', 'Web', 'shop'),
    want: /RFC 1123 subdomain/,
  },
  {
    name: 'A name longer than 253 characters is refused.',
    given: object('v1', 'ConfigMap', 'a'.repeat(254)),
    want: /no more than 253/,
  },
  {
    name: 'A name that is a number is refused as not a string.',
    given: object('v1', 'ConfigMap', 42),
    want: /metadata\.name: must be a string/,
    code: 'MissingField',
  },
  {
    name: 'A namespace with a slash is refused.',
    given: object('v1', 'ConfigMap', 'web', 'a/b'),
    want: /metadata\.namespace "a\/b"/,
  },
  {
    name: 'A namespace with dots is refused: namespaces are DNS labels.',
    given: object('v1', 'ConfigMap', 'web', 'a.b'),
    want: /RFC 1123 label/,
  },
  {
    name: 'A namespace longer than 63 characters is refused.',
    given: object('v1', 'ConfigMap', 'web', 'n'.repeat(64)),
    want: /no more than 63/,
  },
  {
    name: 'A Namespace object name is a DNS label: no dots.',
    given: object('v1', 'Namespace', 'team.a'),
    want: /RFC 1123 label/,
  },
  {
    name: 'A ClusterRole may be named with colons, as Kubernetes allows.',
    given: object('rbac.authorization.k8s.io/v1', 'ClusterRole', 'system:controller:web'),
    want: 'valid',
  },
  {
    name: 'A RoleBinding name may not contain a slash.',
    given: object('rbac.authorization.k8s.io/v1', 'RoleBinding', 'a/b', 'shop'),
    want: /may not contain '\/' or '%'/,
  },
  {
    name: 'A Role may not be named "..".',
    given: object('rbac.authorization.k8s.io/v1', 'Role', '..', 'shop'),
    want: /may not be '\.\.'/,
  },
  {
    name: 'A Role may not be named ".".',
    given: object('rbac.authorization.k8s.io/v1', 'Role', '.', 'shop'),
    want: /may not be '\.'/,
  },
  {
    name: 'A ConfigMap may not use the looser RBAC rule.',
    given: object('v1', 'ConfigMap', 'system:web', 'shop'),
    want: /RFC 1123 subdomain/,
  },
  {
    name: 'A CustomResourceDefinition name with dots is valid.',
    given: object('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com'),
    want: 'valid',
  },
  {
    name: 'A Service name is a DNS-1035 label: no dots, as the API server refuses them.',
    given: object('v1', 'Service', 'svc.with.dots', 'shop'),
    want: /metadata\.name "svc\.with\.dots": must be a DNS-1035 label/,
  },
  {
    name: 'A Service name may not start with a digit.',
    given: object('v1', 'Service', '1starts-digit', 'shop'),
    want: /must be a DNS-1035 label: lowercase alphanumerics or '-', starting with a letter/,
  },
  {
    name: 'A Service name longer than 63 characters is refused.',
    given: object('v1', 'Service', 's'.repeat(64), 'shop'),
    want: /no more than 63/,
  },
  {
    name: 'A Service name starting with a letter is valid.',
    given: object('v1', 'Service', 'web-2', 'shop'),
    want: 'valid',
  },
  {
    name: 'A Service of another group keeps the subdomain rule.',
    given: object('serving.knative.dev/v1', 'Service', 'svc.with.dots', 'shop'),
    want: 'valid',
  },
  {
    name: 'A CronJob name longer than 52 characters is refused: its Jobs append 11.',
    given: object('batch/v1', 'CronJob', 'c'.repeat(53), 'shop'),
    want: /no more than 52/,
  },
  {
    name: 'A ConfigMap data key with a space is refused, naming the key.',
    given: { ...object('v1', 'ConfigMap', 'web', 'shop'), data: { 'a b': 'x', ok: 'y' } },
    want: /ConfigMap\/web: data key "a b": must consist of alphanumerics, '-', '_' or '\.'/,
  },
  {
    name: 'A Secret stringData key with a slash is refused.',
    given: { ...object('v1', 'Secret', 'web', 'shop'), stringData: { 'a/b': 'x' } },
    want: /stringData key "a\/b"/,
  },
  {
    name: 'A ConfigMap binaryData key ".." is refused.',
    given: { ...object('v1', 'ConfigMap', 'web', 'shop'), binaryData: { '..': 'eA==' } },
    want: /binaryData key "\.\.": may not be '\.\.'/,
  },
  {
    name: 'A ConfigMap key in both data and binaryData is refused.',
    given: { ...object('v1', 'ConfigMap', 'web', 'shop'), data: { k: 'x' }, binaryData: { k: 'eA==' } },
    want: /data key "k": is in both data and binaryData/,
  },
  {
    name: 'ConfigMap and Secret keys with dots, dashes and underscores are valid.',
    given: { ...object('v1', 'Secret', 'web', 'shop'), data: { '.dotfile': 'eA==', 'a-b_c.d': 'eA==' } },
    want: 'valid',
  },
  {
    name: 'A policy name follows the subdomain rule too.',
    given: { ...object('policy.karmada.io/v1alpha1', 'PropagationPolicy', '../x', 'shop'), spec: {} },
    want: /metadata\.name "\.\.\/x"/,
  },
];

for (const row of rows) {
  test(row.name, () => {
    const result = loadFleet([fileOf('doc.yaml', row.given)]);
    if (row.want === 'valid') {
      assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
      return;
    }
    assert.ok(!result.ok, 'expected the name to be refused');
    assert.equal(result.errors.length, 1, JSON.stringify(result.errors));
    assert.equal(result.errors[0]?.code, row.code ?? 'InvalidName');
    assert.match(result.errors[0]?.message ?? '', row.want);
  });
}

test('a built-in namespaced template without a namespace lives in default; cluster-scoped and custom kinds stay as written', async () => {
  const { loadFleet } = await import('../../../src/core/load/load-fleet.js');
  const result = loadFleet([
    {
      path: 'a.yaml',
      content:
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\n---\n' +
        'apiVersion: v1\nkind: Namespace\nmetadata: { name: shop }\n---\n' +
        'apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w }\n',
    },
  ]);
  assert.ok(result.ok);
  if (!result.ok) return;
  assert.deepEqual(
    result.fleet.templates.map((t) => [t.ref.kind, t.ref.namespace, t.object.metadata.namespace]),
    [
      ['Deployment', 'default', 'default'],
      ['Namespace', '', undefined],
      ['Widget', '', undefined],
    ],
  );
});

test('a Deployment without a namespace and the same one in default are the same object', async () => {
  const { loadFleet } = await import('../../../src/core/load/load-fleet.js');
  const result = loadFleet([
    { path: 'a.yaml', content: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\n' },
    {
      path: 'b.yaml',
      content: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web, namespace: default }\n',
    },
  ]);
  assert.equal(result.ok, false);
  if (!result.ok) assert.equal(result.errors[0]?.code, 'DuplicateIdentity');
});
