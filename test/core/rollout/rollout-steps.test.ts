// Which strategy rolls out a template and which step a cluster is in (core/rollout/rollout-steps.ts):
// a RolloutStrategy of the template's namespace before any ClusterRolloutStrategy, then the
// selector's precision (name > labelSelector > kind), then the label; a RolloutStrategy of
// another namespace never selects. A cluster is in the first step whose clusters match it,
// else in the last.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RolloutStrategy } from '../../../src/core/model/rollout.js';
import { stepOfCluster, strategyOf, templatesByStrategy } from '../../../src/core/rollout/rollout-steps.js';
import { aCluster } from '../builders.js';
import { aStep, aStrategy, aTemplate, select } from './rollout-fixtures.js';

const web = aTemplate('Deployment', 'web', { labels: { tier: 'front' } });

const byName = (namespace: string) => [select('Deployment', { name: 'web', namespace })];
const byLabel = (namespace: string) => [select('Deployment', { labels: { tier: 'front' }, namespace })];
const byKind = (namespace: string) => [select('Deployment', { namespace })];

// Each row: the strategies (in the order given), and the label of the one that rolls out shop/web.
const precedence: { name: string; strategies: RolloutStrategy[]; want: string | undefined }[] = [
  { name: 'no strategy', strategies: [], want: undefined },
  {
    name: 'a strategy selecting another kind',
    strategies: [aStrategy('jobs', { resourceSelectors: [select('Job', { apiVersion: 'batch/v1' })] })],
    want: undefined,
  },
  {
    name: 'a strategy selecting another name',
    strategies: [
      aStrategy('api', { resourceSelectors: [select('Deployment', { name: 'api', namespace: 'shop' })] }),
    ],
    want: undefined,
  },
  {
    name: 'a label selector that does not match',
    strategies: [
      aStrategy('back', { resourceSelectors: [select('Deployment', { labels: { tier: 'back' } })] }),
    ],
    want: undefined,
  },
  {
    name: 'a namespaced kind-only strategy before a cluster-scoped one by name',
    strategies: [
      aStrategy('by-name', { namespace: '', resourceSelectors: byName('shop') }),
      aStrategy('by-kind', { resourceSelectors: byKind('shop') }),
    ],
    want: 'shop/by-kind',
  },
  {
    name: 'name before labelSelector (namespaced)',
    strategies: [
      aStrategy('a-label', { resourceSelectors: byLabel('shop') }),
      aStrategy('z-name', { resourceSelectors: byName('shop') }),
    ],
    want: 'shop/z-name',
  },
  {
    name: 'labelSelector before kind (namespaced)',
    strategies: [
      aStrategy('a-kind', { resourceSelectors: byKind('shop') }),
      aStrategy('z-label', { resourceSelectors: byLabel('shop') }),
    ],
    want: 'shop/z-label',
  },
  {
    name: 'name before labelSelector before kind (cluster-scoped)',
    strategies: [
      aStrategy('a-kind', { namespace: '', resourceSelectors: byKind('') }),
      aStrategy('b-label', { namespace: '', resourceSelectors: byLabel('') }),
      aStrategy('c-name', { namespace: '', resourceSelectors: byName('shop') }),
    ],
    want: 'c-name',
  },
  {
    name: 'the best selector of a strategy counts (one of several matches by name)',
    strategies: [
      aStrategy('a-label', { resourceSelectors: byLabel('shop') }),
      aStrategy('z-mixed', {
        resourceSelectors: [select('StatefulSet'), ...byKind('shop'), ...byName('shop')],
      }),
    ],
    want: 'shop/z-mixed',
  },
  {
    name: 'equal precision: the first label in order wins, whatever the order given',
    strategies: [
      aStrategy('web-b', { resourceSelectors: byName('shop') }),
      aStrategy('web-a', { resourceSelectors: byName('shop') }),
    ],
    want: 'shop/web-a',
  },
  {
    name: 'equal precision cluster-scoped: the first name wins',
    strategies: [
      aStrategy('zeta', { namespace: '', resourceSelectors: byKind('') }),
      aStrategy('alpha', { namespace: '', resourceSelectors: byKind('') }),
    ],
    want: 'alpha',
  },
  {
    name: "another namespace's RolloutStrategy never selects, even with a selector of no namespace",
    strategies: [
      aStrategy('web', { namespace: 'billing', resourceSelectors: [select('Deployment', { name: 'web' })] }),
    ],
    want: undefined,
  },
  {
    name: "another namespace's RolloutStrategy leaves the template to a cluster-scoped one",
    strategies: [
      aStrategy('web', { namespace: 'billing', resourceSelectors: [select('Deployment', { name: 'web' })] }),
      aStrategy('all', { namespace: '', resourceSelectors: byKind('') }),
    ],
    want: 'all',
  },
  {
    name: 'a cluster-scoped selector of another namespace does not match',
    strategies: [aStrategy('billing-only', { namespace: '', resourceSelectors: byKind('billing') })],
    want: undefined,
  },
];

for (const row of precedence) {
  test(`strategyOf: ${row.name}`, () => {
    const found = strategyOf(web, row.strategies);
    assert.equal(found && (found.namespace ? `${found.namespace}/${found.name}` : found.name), row.want);
  });
}

test('strategyOf: a cluster-scoped template is rolled out only by a ClusterRolloutStrategy', () => {
  const role = aTemplate('ClusterRole', 'reader', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    namespace: '',
  });
  const selector = select('ClusterRole', { apiVersion: 'rbac.authorization.k8s.io/v1' });
  assert.equal(
    strategyOf(role, [aStrategy('roles', { namespace: 'default', resourceSelectors: [selector] })]),
    undefined,
  );
  assert.equal(
    strategyOf(role, [aStrategy('roles', { namespace: '', resourceSelectors: [selector] })])?.name,
    'roles',
  );
});

test('templatesByStrategy: each template under the one strategy that rolls it out; strategies selecting none are absent', () => {
  const api = aTemplate('Deployment', 'api');
  const db = aTemplate('StatefulSet', 'db');
  const other = aTemplate('Deployment', 'web', { namespace: 'billing' });
  const strategies = [
    aStrategy('web', { resourceSelectors: byName('shop') }),
    aStrategy('all', { namespace: '', resourceSelectors: [select('Deployment'), select('StatefulSet')] }),
    aStrategy('unused', { resourceSelectors: [select('DaemonSet')] }),
  ];
  const by = templatesByStrategy([web, api, db, other], strategies);
  assert.deepEqual(
    [...by].map(([label, ts]) => [label, ts.map((t) => t.key)]),
    [
      ['shop/web', ['apps/Deployment/shop/web']],
      ['all', ['apps/Deployment/shop/api', 'apps/StatefulSet/shop/db', 'apps/Deployment/billing/web']],
    ],
  );
  assert.equal(templatesByStrategy([web], []).size, 0);
});

const clusters = {
  canary: aCluster('canary', { labels: { env: 'canary' } }),
  eu: aCluster('eu', { labels: { env: 'prod', region: 'eu' } }),
  us: aCluster('us', { labels: { env: 'prod', region: 'us' } }),
  dev: aCluster('dev', { labels: { env: 'dev' } }),
};

// Each row: the steps' clusters (undefined: a step without clusters) and each cluster's step.
const stepRows: {
  name: string;
  steps: (RolloutStrategy['steps'][number]['clusters'] | undefined)[];
  want: Record<keyof typeof clusters, number>;
}[] = [
  {
    name: 'one step holds every cluster',
    steps: [undefined],
    want: { canary: 1, eu: 1, us: 1, dev: 1 },
  },
  {
    name: 'clusterNames, then a labelSelector; a cluster in no step is in the last',
    steps: [{ clusterNames: ['canary'] }, { labelSelector: { matchLabels: { env: 'prod' } } }],
    want: { canary: 1, eu: 2, us: 2, dev: 2 },
  },
  {
    name: 'the first matching step wins when two match',
    steps: [
      { labelSelector: { matchLabels: { region: 'eu' } } },
      { labelSelector: { matchLabels: { env: 'prod' } } },
      {},
    ],
    want: { canary: 3, eu: 1, us: 2, dev: 3 },
  },
  {
    name: 'exclude takes a cluster out of a step that would match it',
    steps: [
      { labelSelector: { matchLabels: { env: 'prod' } }, exclude: ['us'] },
      { clusterNames: ['canary'] },
      { clusterNames: ['dev'] },
    ],
    want: { canary: 2, eu: 1, us: 3, dev: 3 },
  },
  {
    name: 'a step without clusters matches none (only the last one gets the rest)',
    steps: [undefined, { clusterNames: ['eu'] }, undefined],
    want: { canary: 3, eu: 2, us: 3, dev: 3 },
  },
  {
    name: 'an empty ClusterAffinity matches every cluster, as Karmada matches it',
    steps: [{}, { clusterNames: ['eu'] }],
    want: { canary: 1, eu: 1, us: 1, dev: 1 },
  },
  {
    name: 'exclude alone: every cluster but the excluded',
    steps: [{ exclude: ['canary'] }, {}],
    want: { canary: 2, eu: 1, us: 1, dev: 1 },
  },
  {
    name: 'clusterNames AND labelSelector must both match',
    steps: [{ clusterNames: ['eu', 'dev'], labelSelector: { matchLabels: { env: 'prod' } } }, {}],
    want: { canary: 2, eu: 1, us: 2, dev: 2 },
  },
  {
    name: 'a matchExpressions selector',
    steps: [
      { labelSelector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] } },
      {},
    ],
    want: { canary: 1, eu: 2, us: 2, dev: 1 },
  },
];

for (const row of stepRows) {
  test(`stepOfCluster: ${row.name}`, () => {
    const strategy = aStrategy('web', { steps: row.steps.map((c) => aStep(c ? { clusters: c } : {})) });
    const got = Object.fromEntries(Object.entries(clusters).map(([n, c]) => [n, stepOfCluster(strategy, c)]));
    assert.deepEqual(got, row.want);
  });
}
