// A policy's dependentOverrides, as Karmada's detector reads them (pkg/detector/policy.go
// propagateResource and getAndApplyPolicy, pkg/util/helper/policy.go IsDependentOverridesPresent
// and IsDependentClusterOverridesPresent): while any listed OverridePolicy (of the policy's own
// namespace) or ClusterOverridePolicy (for a ClusterPropagationPolicy) is missing, the detector
// returns "waiting for dependent overrides" before ApplyPolicy, so the ResourceBinding is neither
// created nor updated: a template not yet propagated goes nowhere, one propagated before stays
// where it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectClaims, type Claim } from '../../../src/core/detect/detect-claims.js';
import { compileSkipRules } from '../../../src/core/detect/skip-rules.js';
import type { PreviousBinding } from '../../../src/core/model/binding.js';
import { defaultFleetConfig } from '../../../src/core/model/fleet-config.js';
import type { Template } from '../../../src/core/model/fleet.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';
import type { OverridePolicy } from '../../../src/core/model/override-policy.js';
import type { PropagationPolicy } from '../../../src/core/model/propagation-policy.js';
import { bindClaim } from '../../../src/core/schedule/bind-claims.js';
import { aCluster, aDeployment, anOverridePolicy, aPropagationPolicy } from '../builders.js';

const ref: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' };
const web: Template = {
  ref,
  key: refKey(ref),
  object: aDeployment('web'),
  source: { file: 'web.yaml', index: 0 },
};
const byKind = { apiVersion: 'apps/v1', kind: 'Deployment' };
const clusters = [aCluster('member1'), aCluster('member2')];

function detect(
  policies: PropagationPolicy[],
  overrides: OverridePolicy[],
  previous?: PreviousBinding,
): Claim {
  const result = detectClaims({
    templates: [web],
    policies,
    overridePolicies: overrides,
    previous: new Map(previous ? [[web.key, previous]] : []),
    skipRules: compileSkipRules(defaultFleetConfig()),
  });
  assert.equal(result.claims.length, 1);
  return result.claims[0]!;
}

const pp = aPropagationPolicy('web', [byKind], { dependentOverrides: ['web-op', 'other-op'] });
const cpp = aPropagationPolicy('web', [byKind], { namespace: '', dependentOverrides: ['web-cop'] });

test('A claim lists the dependent overrides that are missing, by kind, namespace and name.', () => {
  const cases: { name: string; policy: PropagationPolicy; overrides: OverridePolicy[]; want: string[] }[] = [
    {
      name: 'none present',
      policy: pp,
      overrides: [],
      want: ['OverridePolicy/default/web-op', 'OverridePolicy/default/other-op'],
    },
    {
      name: 'one present',
      policy: pp,
      overrides: [anOverridePolicy('web-op', [])],
      want: ['OverridePolicy/default/other-op'],
    },
    {
      name: 'an OverridePolicy of another namespace does not count',
      policy: pp,
      overrides: [anOverridePolicy('web-op', [], { namespace: 'other' }), anOverridePolicy('other-op', [])],
      want: ['OverridePolicy/default/web-op'],
    },
    {
      name: 'a ClusterOverridePolicy does not stand in for an OverridePolicy',
      policy: pp,
      overrides: [anOverridePolicy('web-op', [], { namespace: '' }), anOverridePolicy('other-op', [])],
      want: ['OverridePolicy/default/web-op'],
    },
    {
      name: 'a ClusterPropagationPolicy waits for a ClusterOverridePolicy',
      policy: cpp,
      overrides: [anOverridePolicy('web-cop', [])],
      want: ['ClusterOverridePolicy/web-cop'],
    },
    {
      name: 'all present',
      policy: pp,
      overrides: [anOverridePolicy('web-op', []), anOverridePolicy('other-op', [])],
      want: [],
    },
  ];
  for (const c of cases) {
    assert.deepEqual(detect([c.policy], c.overrides).missingOverrides ?? [], c.want, c.name);
  }
});

test('A template not propagated before goes nowhere while an override is missing, with a diagnostic.', () => {
  const claim = detect([pp], [anOverridePolicy('web-op', [])]);
  const bound = bindClaim(claim, { clusters, clusterStatus: new Map() }, undefined);
  assert.equal(bound.binding.schedule.type, 'NoFit');
  assert.equal(bound.diagnostic?.code, 'WaitingForOverrides');
  assert.equal(bound.diagnostic?.subject, 'Deployment/default/web');
  assert.match(bound.diagnostic!.message, /PropagationPolicy\/default\/web/);
  assert.match(bound.diagnostic!.message, /OverridePolicy\/default\/other-op/);
});

test('A template propagated before stays on its previous clusters while an override is missing.', () => {
  const previous: PreviousBinding = {
    key: web.key,
    policy: { kind: 'PropagationPolicy', namespace: 'default', name: 'web' },
    clusters: [{ name: 'member2', replicas: 1 }],
  };
  const claim = detect([pp], [], previous);
  const bound = bindClaim(claim, { clusters, clusterStatus: new Map() }, previous);
  assert.deepEqual(bound.binding.schedule, {
    type: 'Scheduled',
    clusters: [{ name: 'member2', replicas: 1 }],
  });
  assert.equal(bound.diagnostic?.code, 'WaitingForOverrides');
});

test('Once every dependent override is present, the template is scheduled as usual.', () => {
  const claim = detect([pp], [anOverridePolicy('web-op', []), anOverridePolicy('other-op', [])]);
  const bound = bindClaim(claim, { clusters, clusterStatus: new Map() }, undefined);
  assert.deepEqual(bound.binding.schedule, {
    type: 'Scheduled',
    clusters: [
      { name: 'member1', replicas: 1 },
      { name: 'member2', replicas: 1 },
    ],
  });
  assert.equal(bound.diagnostic, undefined);
});
