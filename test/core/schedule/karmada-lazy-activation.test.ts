// activationPreference: Lazy, as Karmada's detector does it (pkg/detector/detector.go: a policy
// change enqueues its templates with ResourceChangeByKarmada when the policy is Lazy
// (enqueueResourceTemplateForPolicyChange), and ApplyPolicy then claims the template but skips
// refreshing the binding; a change of the template itself (OnUpdate, SpecificationChanged in
// pkg/util/eventfilter/eventfilter.go: anything but status, managedFields and resourceVersion)
// refreshes it with the policy as it is then). gitfleet tells the two apart by the template's
// hash, which the binding record keeps for bindings of Lazy policies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Claim } from '../../../src/core/detect/detect-claims.js';
import type { Binding, PreviousBinding } from '../../../src/core/model/binding.js';
import type { Template } from '../../../src/core/model/fleet.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';
import type { PropagationPolicy } from '../../../src/core/model/propagation-policy.js';
import { bindingRecord, parseBindingRecord } from '../../../src/core/publish/binding-record.js';
import { previousBindingOf } from '../../../src/core/publish/previous-binding-of.js';
import { bindClaim } from '../../../src/core/schedule/bind-claims.js';
import { aCluster, aDeployment, aPlacement, aPropagationPolicy } from '../builders.js';

const ref: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' };
const templateOf = (object: KubeObject): Template => ({
  ref,
  key: refKey(ref),
  object,
  source: { file: 'web.yaml', index: 0 },
});
const v1 = templateOf(aDeployment('web', { replicas: 2 }));
const v2 = templateOf(aDeployment('web', { replicas: 3 }));
const context = { clusters: [aCluster('member1'), aCluster('member2')], clusterStatus: new Map() };
const to = (cluster: string, extra: Partial<PropagationPolicy> = {}) =>
  aPropagationPolicy('web', [{ apiVersion: 'apps/v1', kind: 'Deployment' }], {
    placement: aPlacement({ clusterAffinity: { clusterNames: [cluster] } }),
    ...extra,
  });
const lazy = { activationPreference: 'Lazy' as const };

function bind(template: Template, policy: PropagationPolicy, previous?: PreviousBinding): Binding {
  const claim: Claim = { template, policy, how: previous ? 'sticky' : 'matched' };
  return bindClaim(claim, context, previous).binding;
}

/** The binding's record as the next render reads it back. */
function recorded(binding: Binding): PreviousBinding {
  const read = parseBindingRecord(bindingRecord(binding))!;
  assert.deepEqual(read, previousBindingOf(binding), 'the record and the in-memory placement agree');
  return read;
}

const clustersOf = (b: Binding) =>
  b.schedule.type === 'Scheduled' ? b.schedule.clusters.map((c) => c.name) : [];

test('A Lazy policy change alone does not move an already propagated template.', () => {
  const first = bind(v1, to('member1', lazy));
  assert.deepEqual(clustersOf(first), ['member1']);
  const held = bind(v1, to('member2', lazy), recorded(first));
  assert.deepEqual(clustersOf(held), ['member1']);
  assert.deepEqual(
    held.placement.clusterAffinity,
    { clusterNames: ['member1'] },
    'the binding keeps the placement it was built with',
  );
  const again = bind(v1, to('member2', lazy), recorded(held));
  assert.deepEqual(clustersOf(again), ['member1'], 'and keeps holding it, pass after pass');
});

test('A change of the template itself then applies the Lazy policy as it is.', () => {
  const first = bind(v1, to('member1', lazy));
  const held = bind(v1, to('member2', lazy), recorded(first));
  const moved = bind(v2, to('member2', lazy), recorded(held));
  assert.deepEqual(clustersOf(moved), ['member2']);
});

test('A status-only change of the template is not a change (SpecificationChanged ignores status).', () => {
  const first = bind(v1, to('member1', lazy));
  const withStatus = templateOf({ ...aDeployment('web', { replicas: 2 }), status: { readyReplicas: 2 } });
  assert.deepEqual(clustersOf(bind(withStatus, to('member2', lazy), recorded(first))), ['member1']);
});

test('The other fields a binding takes from its policy are held too.', () => {
  const first = bind(v1, to('member1', lazy));
  const held = bind(
    v1,
    to('member1', { ...lazy, propagateDeps: true, conflictResolution: 'Overwrite' }),
    recorded(first),
  );
  assert.equal(held.propagateDeps, false);
  assert.equal(held.conflictResolution, 'Abort');
});

test('Without Lazy, a policy change moves the template at once.', () => {
  const first = bind(v1, to('member1'));
  assert.deepEqual(clustersOf(bind(v1, to('member2'), recorded(first))), ['member2']);
});

test('A record written before Lazy was honoured (no template hash) is still read, and the policy applies.', () => {
  const old: PreviousBinding = {
    key: v1.key,
    policy: { kind: 'PropagationPolicy', namespace: 'default', name: 'web' },
    clusters: [{ name: 'member1', replicas: 2 }],
  };
  const text = bindingRecord(bind(v1, to('member1')));
  // The record also holds the placement it was scheduled with (schedule-trigger.ts), not a held spec.
  const { appliedPlacement: _applied, ...read } = parseBindingRecord(text)!;
  assert.deepEqual(read, old);
  assert.deepEqual(clustersOf(bind(v1, to('member2', lazy), old)), ['member2']);
});
