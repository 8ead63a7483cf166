import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import type { OverridePolicy, OverrideRule } from '../../../src/core/model/override-policy.js';
import type { ResourceSelector } from '../../../src/core/model/selectors.js';
import { selectOverriders } from '../../../src/core/override/select-overriders.js';
import { aCluster, aDeployment, anOverridePolicy } from '../builders.js';

const nginx = aDeployment('nginx', { labels: { app: 'nginx' } });
const member1 = aCluster('member1', { labels: { env: 'prod' } });

const everyCluster: OverrideRule = {
  overriders: { labelsOverrider: [{ operator: 'add', value: { x: '1' } }] },
};
const byName: ResourceSelector = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' };
const byLabel: ResourceSelector = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  labelSelector: { matchLabels: { app: 'nginx' } },
};
const byKind: ResourceSelector = { apiVersion: 'apps/v1', kind: 'Deployment' };
const otherName: ResourceSelector = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'redis' };

function op(
  name: string,
  extra: Partial<OverridePolicy> = {},
  rules: OverrideRule[] = [everyCluster],
): OverridePolicy {
  return anOverridePolicy(name, rules, extra);
}

function cop(
  name: string,
  extra: Partial<OverridePolicy> = {},
  rules: OverrideRule[] = [everyCluster],
): OverridePolicy {
  return anOverridePolicy(name, rules, { namespace: '', ...extra });
}

const cases: {
  name: string;
  given: { object?: KubeObject; policies: OverridePolicy[]; clusterPoliciesOnly?: boolean };
  want: string[];
}[] = [
  {
    name: 'ClusterOverridePolicies come before OverridePolicies, whatever their names.',
    given: { policies: [op('a'), cop('z')] },
    want: ['ClusterOverridePolicy/z#0', 'OverridePolicy/a#0'],
  },
  {
    name: 'Policies sort by implicit priority ascending: match-all, then label selector, then name.',
    given: {
      policies: [
        op('by-name', { resourceSelectors: [byName] }),
        op('by-label', { resourceSelectors: [byLabel] }),
        op('by-kind', { resourceSelectors: [byKind] }),
        op('no-selectors'),
      ],
    },
    want: [
      'OverridePolicy/by-kind#0',
      'OverridePolicy/no-selectors#0',
      'OverridePolicy/by-label#0',
      'OverridePolicy/by-name#0',
    ],
  },
  {
    name: 'Policies of equal priority sort by name.',
    given: { policies: [op('b'), op('c'), op('a')] },
    want: ['OverridePolicy/a#0', 'OverridePolicy/b#0', 'OverridePolicy/c#0'],
  },
  {
    name: 'A policy counts with its best-matching selector.',
    given: {
      policies: [op('a', { resourceSelectors: [byName, byKind] }), op('b', { resourceSelectors: [byLabel] })],
    },
    want: ['OverridePolicy/b#0', 'OverridePolicy/a#0'],
  },
  {
    name: 'Policies whose selectors do not match are left out.',
    given: {
      policies: [
        op('other', { resourceSelectors: [otherName] }),
        cop('other-c', { resourceSelectors: [otherName] }),
      ],
    },
    want: [],
  },
  {
    name: 'OverridePolicies of another namespace are left out.',
    given: { policies: [op('elsewhere', { namespace: 'shop' }), op('here')] },
    want: ['OverridePolicy/here#0'],
  },
  {
    name: 'A cluster-scoped object gets only ClusterOverridePolicies.',
    given: {
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      policies: [op('a'), cop('b')],
    },
    want: ['ClusterOverridePolicy/b#0'],
  },
  {
    name: 'With clusterPoliciesOnly, OverridePolicies are skipped.',
    given: { policies: [op('a'), cop('b')], clusterPoliciesOnly: true },
    want: ['ClusterOverridePolicy/b#0'],
  },
  {
    name: 'Rules whose targetCluster does not match the cluster are left out; the rest keep their order.',
    given: {
      policies: [
        op('a', {}, [
          { targetCluster: { clusterNames: ['member2'] }, overriders: {} },
          { targetCluster: { labelSelector: { matchLabels: { env: 'prod' } } }, overriders: {} },
          { overriders: {} },
          { targetCluster: { exclude: ['member1'] }, overriders: {} },
        ]),
      ],
    },
    want: ['OverridePolicy/a#1', 'OverridePolicy/a#2'],
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const selected = selectOverriders({
      object: given.object ?? nginx,
      cluster: member1,
      policies: given.policies,
      ...(given.clusterPoliciesOnly ? { clusterPoliciesOnly: true } : {}),
    });
    assert.deepEqual(
      selected.map((s) => `${s.policy.kind}/${s.policy.name}#${s.ruleIndex}`),
      want,
    );
  });
}

test('The selected entries carry the rule overriders themselves.', () => {
  const rule: OverrideRule = {
    overriders: { plaintext: [{ path: '/spec/replicas', operator: 'replace', value: 2 }] },
  };
  const [first] = selectOverriders({ object: nginx, cluster: member1, policies: [op('a', {}, [rule])] });
  assert.equal(first?.overriders, rule.overriders);
});
