import { test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import type { Binding } from '../../../src/core/model/binding.js';
import { bindingRecord, parseBindingRecord } from '../../../src/core/publish/binding-record.js';
import { aPlacement } from '../builders.js';

const binding: Binding = {
  name: 'web-deployment',
  resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
  key: 'apps/Deployment/shop/web',
  policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'web' },
  origin: 'policy',
  replicas: 10,
  placement: aPlacement(),
  propagateDeps: true,
  conflictResolution: 'Abort',
  preserveResourcesOnDeletion: false,
  schedule: {
    type: 'Scheduled',
    clusters: [
      { name: 'm1', replicas: 4 },
      { name: 'm2', replicas: 6 },
    ],
    affinityName: 'primary',
  },
  requiredBy: [],
  overrides: 'all',
};

test('a binding record is a Karmada ResourceBinding with the claim and the scheduling result', () => {
  const doc = yaml.load(bindingRecord(binding)) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.equal(doc.apiVersion, 'work.karmada.io/v1alpha2');
  assert.equal(doc.kind, 'ResourceBinding');
  assert.equal(doc.metadata.annotations['propagationpolicy.karmada.io/name'], 'web');
  assert.deepEqual(doc.spec.clusters, [
    { name: 'm1', replicas: 4 },
    { name: 'm2', replicas: 6 },
  ]);
  assert.equal(doc.status.conditions[0].status, 'True');
});

test('a record reads back as the previous binding: claim, clusters and affinity group survive a restart', () => {
  assert.deepEqual(parseBindingRecord(bindingRecord(binding)), {
    key: 'apps/Deployment/shop/web',
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'web' },
    clusters: [
      { name: 'm1', replicas: 4 },
      { name: 'm2', replicas: 6 },
    ],
    affinityName: 'primary',
  });
});

test('cluster-scoped templates get a ClusterResourceBinding claimed by a ClusterPropagationPolicy', () => {
  const cluster: Binding = {
    ...binding,
    resource: { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop' },
    key: '/Namespace//shop',
    policy: { kind: 'ClusterPropagationPolicy', namespace: '', name: 'ns' },
  };
  assert.match(bindingRecord(cluster), /kind: ClusterResourceBinding/);
  assert.deepEqual(parseBindingRecord(bindingRecord(cluster))?.policy, {
    kind: 'ClusterPropagationPolicy',
    namespace: '',
    name: 'ns',
  });
});

test('followers and garbage are not claims', () => {
  const { policy: _policy, ...follower } = binding;
  assert.equal(parseBindingRecord(bindingRecord({ ...follower, origin: 'dependency' })), undefined);
  assert.equal(parseBindingRecord('::: not yaml'), undefined);
  assert.equal(parseBindingRecord('kind: Something\n'), undefined);
});
