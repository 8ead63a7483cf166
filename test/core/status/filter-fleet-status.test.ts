import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BindingView } from '../../../src/core/publish/binding-record.js';
import type { FleetStatusData } from '../../../src/core/status/fleet-status-data.js';
import { filterFleetStatus } from '../../../src/core/status/filter-fleet-status.js';
import { globMatch, matchTemplate } from '../../../src/core/status/match-template.js';
import {
  formatAge,
  formatBehind,
  formatClusterSummaries,
} from '../../../src/core/status/format-fleet-summary.js';

const web = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  namespace: '',
  name: 'widgets.example.com',
};

const matchCases: { name: string; pattern: string; ref: typeof web; want: boolean }[] = [
  { name: 'a bare name matches the name', pattern: 'web', ref: web, want: true },
  { name: 'a bare glob matches the name', pattern: 'w?b*', ref: web, want: true },
  { name: 'a bare name is not a prefix match', pattern: 'we', ref: web, want: false },
  { name: 'Kind/ns/name matches whole', pattern: 'Deployment/shop/web', ref: web, want: true },
  {
    name: 'the kind is matched without regard to case',
    pattern: 'deployment/shop/web',
    ref: web,
    want: true,
  },
  {
    name: 'the namespace is matched with regard to case',
    pattern: 'Deployment/Shop/web',
    ref: web,
    want: false,
  },
  { name: 'globs work in every part', pattern: '*/sh*/*', ref: web, want: true },
  {
    name: 'a namespaced pattern does not match a cluster-scoped template',
    pattern: '*/*/*',
    ref: crd,
    want: false,
  },
  {
    name: 'Kind/name matches a cluster-scoped template',
    pattern: 'customresourcedefinition/*.example.com',
    ref: crd,
    want: true,
  },
];

for (const { name, pattern, ref, want } of matchCases)
  test(`--template: ${name}`, () => assert.equal(matchTemplate(pattern, ref), want));

test('a glob backtracks over several stars and needs the whole text', () => {
  assert.equal(globMatch('a*b*c', 'axxbyyc'), true);
  assert.equal(globMatch('a*b*c', 'axxbyycd'), false);
  assert.equal(globMatch('*', ''), true);
  assert.equal(globMatch('?', ''), false);
});

function binding(ref: typeof web, clusters: string[]): BindingView {
  return {
    name: ref.name,
    resource: ref,
    key: `/${ref.kind}/${ref.namespace}/${ref.name}`,
    origin: 'policy',
    replicas: 0,
    clusters: clusters.map((name) => ({ name, replicas: 0 })),
    aggregatedStatus: [],
  };
}

function data(): FleetStatusData {
  const api = { ...web, name: 'api' };
  return {
    repo: '/fleet',
    branchPrefix: 'gitfleet/',
    bindingsHead: 'h',
    bindings: [binding(web, ['m1', 'm2']), binding(api, ['m2'])],
    reports: new Map([
      ['m1', { cluster: 'm1', appliedCommit: null, objects: [] }],
      ['m2', { cluster: 'm2', appliedCommit: null, objects: [] }],
    ]),
    aggregatedByHub: new Set(['m1', 'm2']),
    unreadable: new Map([['m3', 'no cluster.yaml']]),
    reportTimes: new Map(),
    heartbeatTimes: new Map(),
    renderedHeads: new Map([
      ['m1', 'a'],
      ['m2', 'b'],
      ['m3', 'c'],
    ]),
    behind: new Map(),
    judged: new Map([['m2', 'Unknown']]),
    templateLabels: new Map([['/Deployment/shop/web', { tier: 'front' }]]),
    evictions: [
      { template: 'Deployment/shop/web', cluster: 'm2' },
      { template: 'Deployment/shop/api', cluster: 'm1' },
    ],
    rollouts: [],
  };
}

test('--cluster keeps those clusters, the templates placed on them with their placement cut, and their eviction tasks', () => {
  const got = filterFleetStatus(data(), { clusters: ['m1'] });
  assert.deepEqual(
    got.bindings.map((b) => [b.resource.name, b.clusters.map((c) => c.name)]),
    [['web', ['m1']]],
  );
  assert.deepEqual([...got.renderedHeads.keys()], ['m1']);
  assert.deepEqual([...got.reports.keys()], ['m1']);
  assert.deepEqual([...got.aggregatedByHub], ['m1']);
  assert.equal(got.unreadable.size, 0);
  assert.equal(got.judged.size, 0);
  assert.deepEqual(got.evictions, []);
});

test('--template and -l keep the matching templates and every cluster', () => {
  const byName = filterFleetStatus(data(), { templates: ['api'] });
  assert.deepEqual(
    byName.bindings.map((b) => b.resource.name),
    ['api'],
  );
  assert.deepEqual(byName.evictions, [{ template: 'Deployment/shop/api', cluster: 'm1' }]);
  assert.equal(byName.renderedHeads.size, 3);
  const byLabel = filterFleetStatus(data(), { selector: { matchLabels: { tier: 'front' } } });
  assert.deepEqual(
    byLabel.bindings.map((b) => b.resource.name),
    ['web'],
  );
});

test('BEHIND and REPORTED cells read as kubectl prints them', () => {
  assert.equal(formatBehind({ type: 'Behind', commits: 0 }), '0');
  assert.equal(formatBehind({ type: 'AtLeast', commits: 50 }), '>50');
  assert.equal(formatBehind({ type: 'NotOnBranch' }), '?');
  assert.equal(formatBehind({ type: 'NeverApplied' }), '-');
  assert.equal(formatBehind(undefined), '-');
  assert.deepEqual([45, 119, 120, 7199, 7200, 172_799, 172_800].map(formatAge), [
    '45s',
    '119s',
    '2m',
    '119m',
    '2h',
    '47h',
    '2d',
  ]);
});

test('the clusters table is followed by why each cluster that is not Ready is not', () => {
  const text = formatClusterSummaries([
    {
      cluster: 'm1',
      ready: 'True',
      appliedCommit: 'a1a1a1a1a1',
      renderedCommit: 'a1a1a1a1a1',
      behind: { type: 'Behind', commits: 0 },
      objects: { total: 2, healthy: 2, progressing: 0, degraded: 0, unknown: 0, failed: 0 },
      reportAgeSeconds: 30,
    },
    {
      cluster: 'm2',
      ready: 'Unreadable',
      readyMessage: 'no cluster.yaml',
      appliedCommit: null,
      objects: { total: 0, healthy: 0, progressing: 0, degraded: 0, unknown: 0, failed: 0 },
    },
  ]);
  assert.equal(
    text,
    [
      'CLUSTER  READY       RENDERED  APPLIED  BEHIND  OBJECTS  HEALTHY  PROGRESSING  DEGRADED  UNKNOWN  FAILED  REPORTED',
      'm1       True        a1a1a1a   a1a1a1a  0       2        2        0            0         0        0       30s',
      'm2       Unreadable  -         -        -       0        0        0            0         0        0       -',
      '',
      'm2: status branch unreadable: no cluster.yaml',
    ].join('\n'),
  );
});
