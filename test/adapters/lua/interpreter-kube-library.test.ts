// The kube library and the value conversion of the Lua VM, against the rules of Karmada's VM:
// the library's functions (luavm/kube.go), Quantity.String()'s canonical form
// (k8s.io/apimachinery/pkg/api/resource/quantity.go), the pod template sums
// (pkg/util/resource.go AddPodTemplateRequest, pkg/util/helper/binding.go
// GenerateReplicaRequirements), and the settling of empty tables (luavm/lua_convert.go
// convertEmptySliceToEmptyStructPartly).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatQuantity, readQuantity } from '../../../src/adapters/lua/kube-quantity.js';
import { kubeLibrary } from '../../../src/adapters/lua/kube-library.js';
import { EMPTY_TABLE, type LuaValue } from '../../../src/adapters/lua/lua-values.js';
import { settleEmptyTables } from '../../../src/adapters/lua/settle-empty-tables.js';

const canonical: { given: string; want: string }[] = [
  { given: '1500m', want: '1500m' },
  { given: '1.5', want: '1500m' },
  { given: '2000', want: '2k' },
  { given: '0.1', want: '100m' },
  { given: '1Gi', want: '1Gi' },
  { given: '1536Mi', want: '1536Mi' },
  { given: '2048Mi', want: '2Gi' },
  { given: '512', want: '512' },
  { given: '1e3', want: '1e3' },
];

for (const c of canonical) {
  test(`The quantity ${c.given} prints as ${c.want}.`, () => {
    assert.equal(formatQuantity(readQuantity(c.given)!), c.want);
  });
}

test('resourceAdd sums quantities in the format of the first and counts nil as zero.', () => {
  assert.deepEqual(kubeLibrary['resourceAdd']!(['500m', null, '1']), ['1500m']);
  assert.deepEqual(kubeLibrary['resourceAdd']!(['1Gi', '512Mi']), ['1536Mi']);
  assert.deepEqual(kubeLibrary['resourceAdd']!([]), ['0']);
  assert.throws(() => kubeLibrary['resourceAdd']!([3]), /bad argument #1 \(string expected, got number\)/);
});

test('getResourceQuantity gives the quantity as a number.', () => {
  assert.deepEqual(kubeLibrary['getResourceQuantity']!(['1500m']), [1.5]);
  assert.deepEqual(kubeLibrary['getResourceQuantity']!(['2Ki']), [2048]);
});

test('accuratePodRequirements sums containers, takes the largest init container, and limits stand in for requests.', () => {
  const template = {
    spec: {
      nodeSelector: { disk: 'ssd' },
      containers: [
        { name: 'a', resources: { requests: { cpu: '250m', memory: '64Mi' } } },
        { name: 'b', resources: { limits: { cpu: '1', memory: '1Gi' } } },
      ],
      initContainers: [{ name: 'init', resources: { requests: { cpu: '2' } } }],
    },
  };
  assert.deepEqual(kubeLibrary['accuratePodRequirements']!([template]), [
    { nodeClaim: { nodeSelector: { disk: 'ssd' } }, resourceRequest: { cpu: '2', memory: '1088Mi' } },
  ]);
  assert.deepEqual(kubeLibrary['accuratePodRequirements']!([{ spec: { containers: [{ name: 'a' }] } }]), [
    null,
  ]);
});

test('getPodDependencies lists what the pod template refers to in the namespace, nil when nothing.', () => {
  const template = {
    spec: {
      serviceAccountName: 'worker',
      containers: [
        { name: 'a', envFrom: [{ configMapRef: { name: 'cfg' } }, { secretRef: { name: 'creds' } }] },
      ],
    },
  };
  assert.deepEqual(kubeLibrary['getPodDependencies']!([template, 'shop']), [
    [
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'cfg' },
      { apiVersion: 'v1', kind: 'Secret', namespace: 'shop', name: 'creds' },
      { apiVersion: 'v1', kind: 'ServiceAccount', namespace: 'shop', name: 'worker' },
    ],
  ]);
  assert.deepEqual(kubeLibrary['getPodDependencies']!([{ spec: { containers: [] } }, null]), [null]);
});

test('An empty table becomes {} or [] where the reference has one, and is dropped elsewhere.', () => {
  const reference = { spec: { selector: {}, ports: [], rules: [{ names: [] }] } };
  const result: LuaValue = {
    spec: { selector: EMPTY_TABLE, ports: EMPTY_TABLE, extra: EMPTY_TABLE, rules: [{ names: EMPTY_TABLE }] },
  };
  assert.deepEqual(settleEmptyTables(result, { root: 'object', references: [reference] }), {
    spec: { selector: {}, ports: [], rules: [{ names: [] }] },
  });
  assert.deepEqual(settleEmptyTables(EMPTY_TABLE, { root: 'object' }), {});
  assert.deepEqual(settleEmptyTables(EMPTY_TABLE, { root: 'list' }), []);
});
