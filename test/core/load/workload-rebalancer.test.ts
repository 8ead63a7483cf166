// WorkloadRebalancer (apps.karmada.io/v1alpha1) in the fleet repo: loaded into
// Fleet.workloadRebalancers, checked as Karmada's CRD checks it, with errors naming the file,
// the object and the field; unknown fields refused as for every Karmada kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileOf, mustFail, mustLoad } from './documents.js';

const rebalancer = (spec: unknown, name = 'demo') => ({
  apiVersion: 'apps.karmada.io/v1alpha1',
  kind: 'WorkloadRebalancer',
  metadata: { name },
  spec,
});

test('A rebalancer is loaded with its workloads and TTL, and is no template.', () => {
  const fleet = mustLoad([
    fileOf(
      'rebalance/demo.yaml',
      rebalancer({
        workloads: [
          { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
          { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'reader' },
        ],
        ttlSecondsAfterFinished: 60,
      }),
    ),
  ]);
  assert.deepEqual(fleet.workloadRebalancers, [
    {
      name: 'demo',
      workloads: [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'shop' },
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'reader' },
      ],
      ttlSecondsAfterFinished: 60,
      source: { file: 'rebalance/demo.yaml', index: 0, line: 1 },
    },
  ]);
  assert.deepEqual(fleet.templates, []);
});

test('A fleet without rebalancers has none.', () => {
  assert.equal(mustLoad([]).workloadRebalancers, undefined);
});

const errors: { name: string; spec: unknown; message: RegExp }[] = [
  {
    name: 'A rebalancer with no workloads is refused.',
    spec: { workloads: [] },
    message: /^WorkloadRebalancer\/demo: spec\.workloads: is required and must have at least one item$/,
  },
  {
    name: 'A rebalancer without spec is refused.',
    spec: undefined,
    message: /^WorkloadRebalancer\/demo: spec: is required$/,
  },
  {
    name: 'A workload needs its kind.',
    spec: { workloads: [{ apiVersion: 'apps/v1', name: 'web' }] },
    message: /^WorkloadRebalancer\/demo: spec\.workloads\[0\]\.kind: is required$/,
  },
  {
    name: 'ttlSecondsAfterFinished is an integer.',
    spec: {
      workloads: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
      ttlSecondsAfterFinished: '1m',
    },
    message: /^WorkloadRebalancer\/demo: spec\.ttlSecondsAfterFinished: must be an integer/,
  },
  {
    name: 'An unknown field is refused, as for every Karmada kind.',
    spec: {
      workloads: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
      ttlSecondAfterFinished: 1,
    },
    message: /ttlSecondAfterFinished/,
  },
];

for (const row of errors) {
  test(row.name, () => {
    const found = mustFail([fileOf('rebalance/demo.yaml', rebalancer(row.spec))]);
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.equal(found[0]!.file, 'rebalance/demo.yaml');
    assert.match(found[0]!.message, row.message);
  });
}
