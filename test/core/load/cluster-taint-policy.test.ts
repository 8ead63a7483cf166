// ClusterTaintPolicy loading (core/load/parse-cluster-taint-policy.ts): Karmada's CRD and webhook
// rules, one row each, with the error naming file, document, policy and field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLoadError } from '../../../src/core/load/load-fleet.js';
import { fileOf, mustFail, mustLoad, policyDoc } from './documents.js';

const notReady = { conditionType: 'Ready', operator: 'In', statusValues: ['False'] };
const ready = { conditionType: 'Ready', operator: 'In', statusValues: ['True'] };
const noSchedule = { key: 'example.com/down', effect: 'NoSchedule' };
const ctp = (spec: Record<string, unknown>) => policyDoc('ClusterTaintPolicy', 'down', spec);
const valid = { addOnConditions: [notReady], removeOnConditions: [ready], taints: [noSchedule] };
const fleetConfig = (spec: Record<string, unknown>) => ({
  apiVersion: 'gitfleet.io/v1alpha1',
  kind: 'FleetConfig',
  metadata: { name: 'fleet' },
  spec,
});

interface Row {
  name: string;
  spec: unknown;
  want: { path: string; message: RegExp };
}

const rows: Row[] = [
  {
    name: 'taints is required (CRD)',
    spec: { addOnConditions: [notReady] },
    want: { path: 'spec.taints', message: /is required and must hold at least one taint/ },
  },
  {
    name: 'taints holds at least one (CRD minItems 1)',
    spec: { ...valid, taints: [] },
    want: { path: 'spec.taints', message: /at least one taint/ },
  },
  {
    name: 'two taints with the same key and effect are refused (webhook)',
    spec: { ...valid, taints: [noSchedule, { ...noSchedule, value: 'x' }] },
    want: { path: 'spec.taints[1]', message: /duplicate taint: spec.taints\[0\] has the same key/ },
  },
  {
    name: 'a taint needs a key',
    spec: { ...valid, taints: [{ effect: 'NoSchedule' }] },
    want: { path: 'spec.taints[0].key', message: /is required/ },
  },
  {
    name: 'a taint key is a qualified name, as on a Cluster',
    spec: { ...valid, taints: [{ key: 'bad key', effect: 'NoSchedule' }] },
    want: { path: 'spec.taints[0].key', message: /"bad key"/ },
  },
  {
    name: 'a taint effect is NoSchedule or NoExecute, as on a Cluster',
    spec: { ...valid, taints: [{ key: 'k', effect: 'PreferNoSchedule' }] },
    want: { path: 'spec.taints[0].effect', message: /must be one of NoSchedule, NoExecute/ },
  },
  {
    name: 'NoExecute is refused unless the FleetConfig allows it (webhook --allow-no-execute-taint-policy)',
    spec: { ...valid, taints: [noSchedule, { key: 'k', effect: 'NoExecute' }] },
    want: { path: 'spec.taints[1]', message: /NoExecute .*spec.allowNoExecuteTaintPolicy: true/ },
  },
  {
    name: 'an operator is In or NotIn',
    spec: { ...valid, addOnConditions: [{ ...notReady, operator: 'Exists' }] },
    want: { path: 'spec.addOnConditions[0].operator', message: /must be one of In, NotIn/ },
  },
  {
    name: 'a match condition needs a conditionType',
    spec: { ...valid, removeOnConditions: [{ operator: 'In', statusValues: ['True'] }] },
    want: { path: 'spec.removeOnConditions[0].conditionType', message: /is required/ },
  },
  {
    name: 'a match condition needs statusValues',
    spec: { ...valid, addOnConditions: [{ conditionType: 'Ready', operator: 'In' }] },
    want: { path: 'spec.addOnConditions[0].statusValues', message: /is required/ },
  },
  {
    name: 'a status value is True, False or Unknown (a condition has no other)',
    spec: { ...valid, addOnConditions: [{ ...notReady, statusValues: ['false'] }] },
    want: { path: 'spec.addOnConditions[0].statusValues[0]', message: /must be one of True, False, Unknown/ },
  },
  {
    name: 'targetClusters is a ClusterAffinity, read by the placement’s parser',
    spec: { ...valid, targetClusters: { clusterNames: 'member1' } },
    want: { path: 'spec.targetClusters.clusterNames', message: /must be a list/ },
  },
];

for (const row of rows) {
  test(`ClusterTaintPolicy: ${row.name}`, () => {
    const errors = mustFail([fileOf('taints.yaml', ctp(row.spec as Record<string, unknown>))]);
    assert.equal(errors.length, 1, JSON.stringify(errors, null, 2));
    const error = errors[0]!;
    assert.equal(error.code, 'InvalidPolicy');
    assert.equal(error.file, 'taints.yaml');
    assert.equal(error.index, 0);
    assert.ok(error.message.startsWith(`ClusterTaintPolicy/down: ${row.want.path}: `), error.message);
    assert.match(error.message, row.want.message);
  });
}

test('ClusterTaintPolicy: a valid policy loads, in file order, with the affinity parsed', () => {
  const fleet = mustLoad([
    fileOf(
      'taints.yaml',
      ctp({ ...valid, targetClusters: { labelSelector: { matchLabels: { env: 'prod' } } } }),
      policyDoc('ClusterTaintPolicy', 'another', {
        addOnConditions: [notReady],
        taints: [{ key: 'b', effect: 'NoSchedule' }],
      }),
    ),
  ]);
  assert.deepEqual(
    fleet.clusterTaintPolicies?.map((p) => ({ ...p, source: undefined })),
    [
      {
        name: 'down',
        targetClusters: { labelSelector: { matchLabels: { env: 'prod' } } },
        addOnConditions: [{ conditionType: 'Ready', operator: 'In', statusValues: ['False'] }],
        removeOnConditions: [{ conditionType: 'Ready', operator: 'In', statusValues: ['True'] }],
        taints: [{ key: 'example.com/down', effect: 'NoSchedule' }],
        source: undefined,
      },
      {
        name: 'another',
        addOnConditions: [{ conditionType: 'Ready', operator: 'In', statusValues: ['False'] }],
        removeOnConditions: [],
        taints: [{ key: 'b', effect: 'NoSchedule' }],
        source: undefined,
      },
    ],
  );
  assert.equal(fleet.templates.length, 0, 'a ClusterTaintPolicy is never a template');
});

test('ClusterTaintPolicy: a fleet without one has no clusterTaintPolicies', () => {
  assert.equal(mustLoad([fileOf('empty.yaml')]).clusterTaintPolicies, undefined);
});

test('ClusterTaintPolicy: NoExecute loads when the FleetConfig allows it', () => {
  const spec = { ...valid, taints: [{ key: 'k', effect: 'NoExecute' }] };
  const fleet = mustLoad([
    fileOf('fleet.yaml', fleetConfig({ allowNoExecuteTaintPolicy: true })),
    fileOf('taints.yaml', ctp(spec)),
  ]);
  assert.equal(fleet.config.allowNoExecuteTaintPolicy, true);
  assert.deepEqual(fleet.clusterTaintPolicies?.[0]?.taints, [{ key: 'k', effect: 'NoExecute' }]);
  const refused = mustFail([
    fileOf('fleet.yaml', fleetConfig({ allowNoExecuteTaintPolicy: false })),
    fileOf('taints.yaml', ctp(spec)),
  ]);
  assert.deepEqual(
    refused.map((e) => formatLoadError(e).replace(/:.*$/, '')),
    ['taints.yaml#0'],
    'the error names the policy’s file and document',
  );
});

test('ClusterTaintPolicy: an unknown field is refused by the strict-field pass', () => {
  const errors = mustFail([fileOf('taints.yaml', ctp({ ...valid, taint: [noSchedule] }))]);
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0]!.code, 'UnknownField');
  assert.match(errors[0]!.message, /ClusterTaintPolicy\/down: spec\.taint\b/);
});

test('ClusterTaintPolicy: two with one name are one identity (defined twice)', () => {
  const errors = mustFail([fileOf('a.yaml', ctp(valid)), fileOf('b.yaml', ctp(valid))]);
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.code, 'DuplicateIdentity');
});
