import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BindingView } from '../../../src/core/publish/binding-record.js';
import { formatStatusText } from '../../../src/core/status/format-status-text.js';
import type { AgentReport } from '../../../src/core/status/status-branch.js';
import { statusTable, type StatusRow } from '../../../src/core/status/status-table.js';

const c1 = 'c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1';

function view(kind: string, name: string, replicas: number, clusters: [string, number][]): BindingView {
  const apiVersion = kind === 'Deployment' ? 'apps/v1' : 'v1';
  const resource = { apiVersion, kind, namespace: 'shop', name };
  return {
    name: `${name}-${kind.toLowerCase()}`,
    resource,
    key: `${kind === 'Deployment' ? 'apps' : ''}/${kind}/shop/${name}`,
    origin: 'policy',
    replicas,
    clusters: clusters.map(([n, r]) => ({ name: n, replicas: r })),
    aggregatedStatus: [],
  };
}

const web = view('Deployment', 'web', 3, [
  ['m1', 2],
  ['m2', 1],
]);
const settings = view('ConfigMap', 'settings', 0, [['m1', 0]]);

const reports = new Map<string, AgentReport>([
  [
    'm1',
    {
      cluster: 'm1',
      appliedCommit: c1,
      objects: [
        { ref: web.resource, applied: true, health: 'Healthy' },
        { ref: settings.resource, applied: false, message: 'apply failed: forbidden', health: 'Unknown' },
      ],
    },
  ],
  [
    'm3',
    { cluster: 'm3', appliedCommit: c1, objects: [{ ref: web.resource, applied: true, health: 'Degraded' }] },
  ],
]);

test('every template gets a row per cluster, with placement, replicas, applied commit and health', () => {
  const want: StatusRow[] = [
    {
      template: 'ConfigMap/shop/settings',
      cluster: 'm1',
      placed: true,
      appliedCommit: c1,
      applied: false,
      health: 'Unknown',
      message: 'apply failed: forbidden',
    },
    {
      template: 'ConfigMap/shop/settings',
      cluster: 'm2',
      placed: false,
      appliedCommit: null,
      applied: false,
    },
    { template: 'ConfigMap/shop/settings', cluster: 'm3', placed: false, appliedCommit: c1, applied: false },
    {
      template: 'Deployment/shop/web',
      cluster: 'm1',
      placed: true,
      replicas: 2,
      appliedCommit: c1,
      applied: true,
      health: 'Healthy',
    },
    {
      template: 'Deployment/shop/web',
      cluster: 'm2',
      placed: true,
      replicas: 1,
      appliedCommit: null,
      applied: false,
      health: 'Unknown',
      message: 'cluster m2 has reported no status yet',
    },
    {
      template: 'Deployment/shop/web',
      cluster: 'm3',
      placed: false,
      appliedCommit: c1,
      applied: true,
      health: 'Degraded',
      message: 'not placed here, but still reported by the agent',
    },
  ];
  assert.deepEqual(statusTable({ bindings: [web, settings], reports }), want);
});

test('a selector keeps the templates whose labels match; templates without known labels do not match', () => {
  const rows = statusTable({
    bindings: [web, settings],
    reports,
    selector: { matchLabels: { app: 'web' } },
    templateLabels: new Map([[web.key, { app: 'web' }]]),
  });
  assert.deepEqual([...new Set(rows.map((r) => r.template))], ['Deployment/shop/web']);
});

test('clusters given explicitly show up even when nothing is placed there', () => {
  const rows = statusTable({ bindings: [settings], reports: new Map(), clusters: ['m9'] });
  assert.deepEqual(
    rows.map((r) => [r.cluster, r.placed]),
    [
      ['m1', true],
      ['m9', false],
    ],
  );
});

test('a cluster behind its branch head shows as not yet applied', () => {
  const rows = statusTable({
    bindings: [settings],
    reports,
    renderedCommitOf: () => 'd'.repeat(40),
  });
  assert.equal(
    rows.find((r) => r.cluster === 'm1')?.message,
    'not yet applied: cluster at c1c1c1c, rendered ddddddd',
  );
});

test('the text table aligns its columns and shortens commits', () => {
  const text = formatStatusText(
    statusTable({ bindings: [web], reports: new Map([['m1', reports.get('m1')!]]) }),
  );
  assert.equal(
    text,
    [
      'TEMPLATE             CLUSTER  PLACED  REPLICAS  APPLIED-COMMIT  APPLIED  HEALTH   MESSAGE',
      'Deployment/shop/web  m1       yes     2         c1c1c1c         yes      Healthy',
      'Deployment/shop/web  m2       yes     1         -               no       Unknown  cluster m2 has reported no status yet',
    ].join('\n'),
  );
});

test('an empty table says there are no templates', () => {
  assert.equal(formatStatusText([]), 'no templates');
});
