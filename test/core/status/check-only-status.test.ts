// A check-only ValidatingAdmissionPolicy (gitfleet.io/admission: check-only) is placed and
// checked at render, never applied: its binding record says so, and status and the dashboard
// show it as CheckedAtRender, not as waiting for an apply (docs/admission-policies.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Binding } from '../../../src/core/model/binding.js';
import { bindingRecord, parseBindingView } from '../../../src/core/publish/binding-record.js';
import { aggregateBindingStatus } from '../../../src/core/status/aggregate-status.js';
import { explainTemplates } from '../../../src/core/status/explain-template.js';
import { summarizeClusters, summarizeTemplates } from '../../../src/core/status/fleet-summary.js';
import { fleetStatusTable } from '../../../src/core/status/status-table.js';
import { formatStatusText } from '../../../src/core/status/format-status-text.js';
import { syncOf, templateListOf } from '../../../src/loops/ui/template-list-view.js';
import { aPlacement } from '../builders.js';
import { aFleetStatus, aReport, aWebBinding, aWebRecord } from './fleet-status-builders.js';

const clusters = ['member1', 'member2'];

function aPolicyBinding(over: Partial<Binding> = {}): Binding {
  return {
    name: 'max-replicas-validatingadmissionpolicy',
    resource: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      namespace: '',
      name: 'max-replicas',
    },
    key: 'admissionregistration.k8s.io/ValidatingAdmissionPolicy/max-replicas',
    policy: { kind: 'ClusterPropagationPolicy', namespace: '', name: 'admission' },
    origin: 'policy',
    replicas: 0,
    placement: aPlacement(),
    propagateDeps: false,
    conflictResolution: 'Abort',
    preserveResourcesOnDeletion: false,
    schedule: { type: 'Scheduled', clusters: clusters.map((name) => ({ name, replicas: 0 })) },
    requiredBy: [],
    overrides: 'all',
    checkOnly: true,
    ...over,
  };
}

/** The record the hub writes for the binding, with the agents' reports (neither holds the policy), read back. */
function recorded(binding: Binding) {
  const reports = new Map(clusters.map((c) => [c, aReport(c, [aWebRecord()])]));
  return parseBindingView(bindingRecord(binding, aggregateBindingStatus({ binding, reports })))!;
}

test('the binding record of a check-only template says so, and each cluster of its status is checked at render', () => {
  const view = recorded(aPolicyBinding());
  assert.equal(view.checkOnly, true);
  assert.deepEqual(
    view.aggregatedStatus.map((s) => [s.clusterName, s.applied, s.checkedAtRender]),
    [
      ['member1', false, true],
      ['member2', false, true],
    ],
  );
});

test('a record written before check-only placements were recorded reads as an applied template', () => {
  const { checkOnly: _, ...older } = aPolicyBinding();
  const view = recorded(older);
  assert.equal(view.checkOnly, undefined);
  assert.ok(view.aggregatedStatus.every((s) => s.checkedAtRender === undefined && !s.applied));
});

test('status shows a check-only template as CheckedAtRender on every cluster, not as not applied', () => {
  const policy = recorded(aPolicyBinding());
  const data = aFleetStatus(
    [policy, aWebBinding({}, clusters)],
    clusters.map((c) => aReport(c, [aWebRecord()])),
  );
  const [summary] = summarizeTemplates(data).filter((t) => t.key === policy.key);
  assert.equal(summary!.health, 'CheckedAtRender');
  assert.equal(summary!.counts.notApplied, 0);
  const explained = explainTemplates(data).find((t) => t.key === policy.key)!;
  assert.equal(explained.reason, 'CheckedAtRender');
  assert.deepEqual(
    explained.clusters.map((c) => c.reason),
    ['CheckedAtRender', 'CheckedAtRender'],
  );
  // The clusters' counts hold what is on them: the Deployment only, applied and Healthy.
  for (const c of summarizeClusters(data, new Date())) assert.equal(c.objects.failed, 0);
  const rows = fleetStatusTable(data, { placedOnly: true }).filter((r) =>
    r.template.includes('max-replicas'),
  );
  assert.deepEqual(
    rows.map((r) => r.reason),
    ['CheckedAtRender', 'CheckedAtRender'],
  );
  assert.match(
    formatStatusText(rows),
    /ValidatingAdmissionPolicy\/max-replicas\s+member1\s+yes\s+-\s+\S+\s+checked\s+-/,
  );
});

test('the dashboard overview gives a check-only template the sync state CheckedAtRender, not OutOfSync', () => {
  const policy = recorded(aPolicyBinding());
  const data = aFleetStatus(
    [policy],
    clusters.map((c) => aReport(c, [aWebRecord()])),
  );
  const explanations = new Map(explainTemplates(data).map((e) => [e.key, e]));
  const [item] = templateListOf(data, explanations).templates;
  assert.equal(item!.sync, 'CheckedAtRender');
  assert.equal(item!.health, 'CheckedAtRender');
  assert.equal(
    syncOf([{ cluster: 'member1', applied: false }], () => true),
    'OutOfSync',
  );
});
