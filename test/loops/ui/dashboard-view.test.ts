// The dashboard's matrix cells and cluster cards, as tables: what each status row becomes, and
// that the matrix holds one cell per template × cluster in the order the page draws them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BindingView } from '../../../src/core/publish/binding-record.js';
import type { FleetStatusData } from '../../../src/core/status/fleet-status-data.js';
import type { AgentReport } from '../../../src/core/status/status-branch.js';
import type { StatusRow } from '../../../src/core/status/status-table.js';
import {
  cellOf,
  clusterCardsOf,
  matrixOf,
  statusRowsOf,
  type CellContext,
} from '../../../src/loops/ui/dashboard-view.js';

const web = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
const settings = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' };

function aBinding(resource: typeof web, clusters: string[]): BindingView {
  const group = resource.apiVersion.includes('/') ? resource.apiVersion.split('/')[0] : '';
  return {
    name: resource.name,
    resource,
    key: `${group}/${resource.kind}/${resource.namespace}/${resource.name}`,
    origin: 'policy',
    replicas: 0,
    clusters: clusters.map((name) => ({ name, replicas: 0 })),
    aggregatedStatus: [],
  };
}

function someData(extra: Partial<FleetStatusData> = {}): FleetStatusData {
  const report: AgentReport = {
    cluster: 'm1',
    appliedCommit: 'c1',
    clusterStatus: {
      kubernetesVersion: 'v1.31.2',
      conditions: [{ type: 'Ready', status: 'True' }],
      resourceSummary: { allocatable: { cpu: '8' } },
    },
    objects: [
      { ref: web, applied: true, health: 'Degraded' },
      { ref: settings, applied: false, message: 'denied', health: 'Unknown' },
    ],
  };
  return {
    repo: 'r',
    branchPrefix: 'gitfleet/',
    bindingsHead: 'b',
    bindings: [aBinding(web, ['m1']), aBinding(settings, ['m1'])],
    reports: new Map([['m1', report]]),
    aggregatedByHub: new Set(),
    unreadable: new Map([['m2', 'cluster.yaml is not YAML']]),
    reportTimes: new Map(),
    heartbeatTimes: new Map(),
    renderedHeads: new Map([
      ['m1', 'c1'],
      ['m2', 'c2'],
    ]),
    behind: new Map(),
    judged: new Map(),
    templateLabels: new Map([['apps/Deployment/shop/web', { app: 'web' }]]),
    evictions: [],
    rollouts: [],
    ...extra,
  };
}

const ctx: CellContext = { unreadable: new Set(['m2']), failed: new Set(['m1 ConfigMap/shop/settings']) };
const row = (extra: Partial<StatusRow>): StatusRow => ({
  template: 'Deployment/shop/web',
  cluster: 'm1',
  placed: true,
  appliedCommit: 'c1',
  applied: true,
  ...extra,
});

const cells: { name: string; given: StatusRow; want: string }[] = [
  { name: 'a placed Healthy object is H', given: row({ health: 'Healthy' }), want: 'H' },
  { name: 'a placed Progressing object is P', given: row({ health: 'Progressing' }), want: 'P' },
  {
    name: 'a placed object not yet applied is U',
    given: row({ applied: false, health: 'Unknown' }),
    want: 'U',
  },
  {
    name: 'an object whose apply the agent reports failed is F',
    given: row({ template: 'ConfigMap/shop/settings', applied: false, health: 'Unknown', message: 'denied' }),
    want: 'F',
  },
  {
    name: 'an object not placed but still reported is lower case',
    given: row({ placed: false, health: 'Degraded' }),
    want: 'd',
  },
  {
    name: 'a template neither placed nor reported is a dot',
    given: row({ placed: false, applied: false }),
    want: '.',
  },
  {
    name: 'every cell of a cluster whose status does not read is X',
    given: row({ cluster: 'm2', health: 'Healthy' }),
    want: 'X',
  },
];

for (const c of cells) test(`cellOf: ${c.name}.`, () => assert.equal(cellOf(c.given, ctx), c.want));

test('the matrix holds one cell per template and cluster, rows in label order, with the labels from the source', () => {
  const data = someData();
  const matrix = matrixOf(data, statusRowsOf(data));
  assert.deepEqual(matrix.clusters, ['m1', 'm2']);
  assert.deepEqual(
    matrix.templates.map((t) => [t.label, t.kind, t.namespace, t.labels]),
    [
      ['ConfigMap/shop/settings', 'ConfigMap', 'shop', {}],
      ['Deployment/shop/web', 'Deployment', 'shop', { app: 'web' }],
    ],
  );
  assert.equal(matrix.cells, 'FXDX');
});

test("the cluster cards are status's summaries, with the capacity the agent reported", () => {
  const cards = clusterCardsOf(someData(), new Date(0));
  assert.deepEqual(
    cards.map((c) => [c.cluster, c.ready, c.allocatable?.['cpu']]),
    [
      ['m1', 'True', '8'],
      ['m2', 'Unreadable', undefined],
    ],
  );
});
