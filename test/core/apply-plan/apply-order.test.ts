import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyBatches,
  applyStage,
  compareApplyOrder,
  comparePruneOrder,
} from '../../../src/core/apply-plan/apply-order.js';
import type { ObjectRef } from '../../../src/core/model/object-ref.js';

const ref = (apiVersion: string, kind: string, name = 'x', namespace = ''): ObjectRef => ({
  apiVersion,
  kind,
  namespace,
  name,
});

const crd = ref('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com');
const namespace = ref('v1', 'Namespace', 'shop');
const clusterRole = ref('rbac.authorization.k8s.io/v1', 'ClusterRole');
const storageClass = ref('storage.k8s.io/v1', 'StorageClass', 'fast');
const priorityClass = ref('scheduling.k8s.io/v1', 'PriorityClass', 'high');
const serviceAccount = ref('v1', 'ServiceAccount', 'web', 'shop');
const secret = ref('v1', 'Secret', 'web', 'shop');
const configMap = ref('v1', 'ConfigMap', 'web', 'shop');
const pvc = ref('v1', 'PersistentVolumeClaim', 'data', 'shop');
const role = ref('rbac.authorization.k8s.io/v1', 'Role', 'web', 'shop');
const service = ref('v1', 'Service', 'web', 'shop');
const deployment = ref('apps/v1', 'Deployment', 'web', 'shop');
const hpa = ref('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', 'shop');
const ingress = ref('networking.k8s.io/v1', 'Ingress', 'web', 'shop');
const lease = ref('coordination.k8s.io/v1', 'Lease', 'web', 'shop');
const widget = ref('example.com/v1', 'Widget', 'w', 'shop');
const webhook = ref('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', 'check');

test('objects are staged: CRDs, then cluster-scoped prerequisites, then everything else', () => {
  const cases: { name: string; given: ObjectRef; want: number }[] = [
    { name: 'a CRD is stage 0', given: crd, want: 0 },
    { name: 'a Namespace is stage 1', given: namespace, want: 1 },
    { name: 'a ClusterRole is stage 1', given: clusterRole, want: 1 },
    { name: 'a StorageClass (a *Class kind) is stage 1', given: storageClass, want: 1 },
    { name: 'a PriorityClass is stage 1', given: priorityClass, want: 1 },
    { name: 'a Deployment is stage 2', given: deployment, want: 2 },
    { name: 'a custom resource is stage 2', given: widget, want: 2 },
  ];
  for (const c of cases) assert.equal(applyStage(c.given), c.want, c.name);
});

test('the apply order is CRDs, prerequisites, then the Argo CD kind order, custom resources and webhooks last', () => {
  const want = [
    crd,
    namespace,
    clusterRole,
    priorityClass,
    storageClass,
    serviceAccount,
    secret,
    configMap,
    pvc,
    role,
    service,
    deployment,
    hpa,
    ingress,
    lease,
    widget,
    webhook,
  ];
  const shuffled = [...want].reverse();
  assert.deepEqual(
    shuffled.sort(compareApplyOrder).map((r) => r.kind),
    want.map((r) => r.kind),
  );
});

test('objects of one kind are ordered by namespace and name', () => {
  const given = [
    ref('v1', 'ConfigMap', 'b', 'ns1'),
    ref('v1', 'ConfigMap', 'a', 'ns2'),
    ref('v1', 'ConfigMap', 'a', 'ns1'),
  ];
  assert.deepEqual(
    given.sort(compareApplyOrder).map((r) => `${r.namespace}/${r.name}`),
    ['ns1/a', 'ns1/b', 'ns2/a'],
  );
});

test('a kind named like a built-in one in a custom group is a custom resource', () => {
  assert.ok(compareApplyOrder(ref('example.com/v1', 'Service', 's', 'shop'), deployment) > 0);
});

test('the prune order deletes custom resources before their CRDs and Namespaces last', () => {
  const given = [namespace, crd, widget, deployment, configMap, clusterRole, webhook];
  assert.deepEqual(
    given.sort(comparePruneOrder).map((r) => r.kind),
    [
      'ValidatingWebhookConfiguration',
      'Widget',
      'Deployment',
      'ConfigMap',
      'CustomResourceDefinition',
      'ClusterRole',
      'Namespace',
    ],
  );
});

test('applyBatches groups consecutive objects of one kind, in apply order', () => {
  const items = [deployment, configMap, ref('v1', 'ConfigMap', 'other', 'shop'), crd].map((r) => ({
    ref: r,
  }));
  assert.deepEqual(
    applyBatches(items).map((b) => b.map((i) => `${i.ref.kind}/${i.ref.name}`)),
    [
      ['CustomResourceDefinition/widgets.example.com'],
      ['ConfigMap/other', 'ConfigMap/web'],
      ['Deployment/web'],
    ],
  );
});
