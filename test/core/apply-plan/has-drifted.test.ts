import { test } from 'node:test';
import assert from 'node:assert/strict';
import { driftedFields, hasDrifted } from '../../../src/core/apply-plan/has-drifted.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';

const live: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'shop',
    resourceVersion: '10',
    generation: 2,
    labels: { app: 'web' },
    managedFields: [{ manager: 'gitfleet' }],
  },
  spec: { replicas: 2, template: { spec: { containers: [{ name: 'web', image: 'nginx:1' }] } } },
  status: { readyReplicas: 2 },
};

const cases: { name: string; given: (l: KubeObject) => KubeObject; want: boolean }[] = [
  { name: 'the same object has not drifted', given: (l) => structuredClone(l), want: false },
  {
    name: 'a new resourceVersion, generation and managedFields are not drift',
    given: (l) => ({
      ...structuredClone(l),
      metadata: { ...l.metadata, resourceVersion: '11', generation: 3, managedFields: [] },
    }),
    want: false,
  },
  {
    name: 'a different status is not drift',
    given: (l) => ({ ...structuredClone(l), status: { readyReplicas: 0 } }),
    want: false,
  },
  {
    name: 'a changed spec value is drift',
    given: (l) => ({ ...structuredClone(l), spec: { ...(l.spec as object), replicas: 3 } }),
    want: true,
  },
  {
    name: 'a changed list item is drift',
    given: (l) => ({
      ...structuredClone(l),
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'web', image: 'nginx:2' }] } } },
    }),
    want: true,
  },
  {
    name: 'a new label is drift',
    given: (l) => ({ ...structuredClone(l), metadata: { ...l.metadata, labels: { app: 'web', x: 'y' } } }),
    want: true,
  },
  {
    name: 'a field the dry-run adds is drift',
    given: (l) => ({ ...structuredClone(l), data: { a: '1' } }),
    want: true,
  },
];

test('hasDrifted compares the dry-run result with the live object, ignoring what every write changes', () => {
  for (const c of cases) assert.equal(hasDrifted(live, c.given(live)), c.want, c.name);
});

test('driftedFields names the paths put back, arrays whole and odd keys quoted, never a value, at most max of them', () => {
  const changed = structuredClone(live);
  (changed.spec as { replicas: number }).replicas = 5;
  changed.metadata.labels = { app: 'web', 'app.kubernetes.io/name': 'secret-looking-value' };
  (
    changed.spec as { template: { spec: { containers: { image: string }[] } } }
  ).template.spec.containers[0]!.image = 'nginx:2';
  changed.metadata.resourceVersion = '99';
  changed.status = { readyReplicas: 0 };
  assert.deepEqual(driftedFields(changed, live), [
    'metadata.labels["app.kubernetes.io/name"]',
    'spec.replicas',
    'spec.template.spec.containers',
  ]);
  assert.doesNotMatch(driftedFields(changed, live).join(' '), /secret-looking-value|nginx/);
  assert.deepEqual(driftedFields(live, structuredClone(live)), []);
  assert.deepEqual(driftedFields(changed, live, 2), [
    'metadata.labels["app.kubernetes.io/name"]',
    'spec.replicas',
    '…',
  ]);
});
