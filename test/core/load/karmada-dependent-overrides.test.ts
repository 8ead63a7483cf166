// A policy's dependentOverrides, as Karmada's detector reads them (pkg/detector/policy.go
// propagateResource and getAndApplyPolicy, pkg/util/helper/policy.go IsDependentOverridesPresent
// and IsDependentClusterOverridesPresent): while any listed OverridePolicy (of the policy's own
// namespace) or ClusterOverridePolicy (for a ClusterPropagationPolicy) is missing, the detector
// returns "waiting for dependent overrides" before ApplyPolicy, so the ResourceBinding is neither
// created nor updated: a template not yet propagated goes nowhere, one propagated before stays
// where it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, type SourceFile } from '../../../src/core/load/load-fleet.js';
import type { PreviousBinding } from '../../../src/core/model/binding.js';
import { renderFleet } from '../../../src/core/render/render-fleet.js';
import { clusterDoc, fileOf, mustLoad, policyDoc } from './documents.js';

const deployments = [{ apiVersion: 'apps/v1', kind: 'Deployment' }];
const web = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: { spec: { containers: [{ name: 'web', image: 'nginx' }] } },
  },
};
const overriders = {
  overrideRules: [{ overriders: { labelsOverrider: [{ operator: 'add', value: { tier: 'web' } }] } }],
};
const op = (name: string, namespace = 'default') =>
  policyDoc('OverridePolicy', name, { resourceSelectors: deployments, ...overriders }, namespace);
const cop = (name: string) =>
  policyDoc('ClusterOverridePolicy', name, { resourceSelectors: deployments, ...overriders });
const pp = policyDoc(
  'PropagationPolicy',
  'web',
  { resourceSelectors: deployments, dependentOverrides: ['web-op', 'other-op'] },
  'default',
);
const cpp = policyDoc('ClusterPropagationPolicy', 'web', {
  resourceSelectors: deployments,
  dependentOverrides: ['web-cop'],
});
const base = (...docs: unknown[]): SourceFile[] => [
  fileOf('clusters.yaml', clusterDoc('member1'), clusterDoc('member2')),
  fileOf('apps/web.yaml', web),
  fileOf('policies.yaml', ...docs),
];

test('A policy lists the dependent overrides the fleet lacks, by kind, namespace and name.', () => {
  const cases: { name: string; docs: unknown[]; want: string[] | undefined }[] = [
    {
      name: 'none present',
      docs: [pp],
      want: ['OverridePolicy/default/web-op', 'OverridePolicy/default/other-op'],
    },
    { name: 'one present', docs: [pp, op('web-op')], want: ['OverridePolicy/default/other-op'] },
    {
      name: 'an OverridePolicy of another namespace does not count',
      docs: [pp, op('web-op', 'other'), op('other-op')],
      want: ['OverridePolicy/default/web-op'],
    },
    {
      name: 'a ClusterOverridePolicy does not stand in for an OverridePolicy',
      docs: [pp, cop('web-op'), op('other-op')],
      want: ['OverridePolicy/default/web-op'],
    },
    {
      name: 'a ClusterPropagationPolicy waits for a ClusterOverridePolicy',
      docs: [cpp, op('web-cop')],
      want: ['ClusterOverridePolicy/web-cop'],
    },
    { name: 'all present', docs: [pp, op('web-op'), op('other-op')], want: undefined },
  ];
  for (const c of cases) {
    assert.deepEqual(mustLoad(base(...c.docs)).propagationPolicies[0]!.missingOverrides, c.want, c.name);
  }
});

test('A template not propagated before goes nowhere while an override is missing, with a diagnostic.', () => {
  const render = renderFleet({
    fleet: mustLoad(base(pp, op('web-op'))),
    clusterStatus: new Map(),
    previous: new Map(),
  });
  assert.equal(render.clusters.get('member1')!.files.size, 0);
  const waiting = render.diagnostics.find((d) => d.code === 'WaitingForOverrides');
  assert.equal(waiting?.subject, 'Deployment/default/web');
  assert.match(waiting!.message, /PropagationPolicy\/default\/web/);
  assert.match(waiting!.message, /OverridePolicy\/default\/other-op/);
});

test('A template propagated before stays on its previous clusters while an override is missing.', () => {
  const previous = new Map<string, PreviousBinding>([
    [
      'apps/Deployment/default/web',
      {
        key: 'apps/Deployment/default/web',
        policy: { kind: 'PropagationPolicy', namespace: 'default', name: 'web' },
        clusters: [{ name: 'member2', replicas: 1 }],
      },
    ],
  ]);
  const render = renderFleet({ fleet: mustLoad(base(pp)), clusterStatus: new Map(), previous });
  assert.equal(render.clusters.get('member1')!.files.size, 0);
  assert.ok(render.clusters.get('member2')!.files.size > 0);
});

test('Once every dependent override is present the template propagates, with or without the memos.', () => {
  const first = loadFleet(base(pp, op('web-op')));
  assert.ok(first.ok);
  const again = loadFleet(base(pp, op('web-op')), { memo: first.memo });
  assert.ok(again.ok);
  assert.equal(
    again.fleet.propagationPolicies[0],
    first.fleet.propagationPolicies[0],
    'a policy still waiting is the same object',
  );
  const r1 = renderFleet(
    { fleet: first.fleet, clusterStatus: new Map(), previous: new Map() },
    { ahead: true },
  );
  const second = loadFleet(base(pp, op('web-op'), op('other-op')), { memo: first.memo });
  assert.ok(second.ok);
  const r2 = renderFleet(
    { fleet: second.fleet, clusterStatus: new Map(), previous: r1.placements },
    { memo: r1.memo, ahead: true },
  );
  assert.ok(r2.clusters.get('member1')!.files.size > 0, 'the memo does not keep it waiting');
  assert.ok(!r2.diagnostics.some((d) => d.code === 'WaitingForOverrides'));
});
