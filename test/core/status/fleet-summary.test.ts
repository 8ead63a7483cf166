import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BindingView } from '../../../src/core/publish/binding-record.js';
import type { FleetStatusData } from '../../../src/core/status/fleet-status-data.js';
import {
  summarizeClusters,
  summarizeTemplates,
  type ClusterSummary,
} from '../../../src/core/status/fleet-summary.js';
import type { AgentReport } from '../../../src/core/status/status-branch.js';
import { aFleetStatus as someFleetStatus } from './fleet-status-builders.js';

const h1 = 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1';
const h2 = 'b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2';

function view(kind: string, name: string, replicas: number, clusters: [string, number][]): BindingView {
  const apiVersion = kind === 'Deployment' ? 'apps/v1' : 'v1';
  return {
    name: `${name}-${kind.toLowerCase()}`,
    resource: { apiVersion, kind, namespace: 'shop', name },
    key: `${kind === 'Deployment' ? 'apps' : ''}/${kind}/shop/${name}`,
    origin: 'policy',
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'all' },
    replicas,
    clusters: clusters.map(([n, r]) => ({ name: n, replicas: r })),
    aggregatedStatus: [],
  };
}

const web = view('Deployment', 'web', 3, [
  ['m2', 1],
  ['m1', 2],
]);
const settings = view('ConfigMap', 'settings', 0, [['m1', 0]]);

/** Returns status data with nothing in it but what `over` sets. */
function aFleetStatus(over: Partial<FleetStatusData> = {}): FleetStatusData {
  return someFleetStatus([], [], over);
}

function report(cluster: string, over: Partial<AgentReport> = {}): AgentReport {
  return { cluster, appliedCommit: h1, objects: [], ...over };
}

const ready = (status: 'True' | 'False', extra: { reason?: string; message?: string } = {}) => ({
  conditions: [{ type: 'Ready', status, ...extra }],
});

const now = new Date('2026-12-01T12:00:00.000Z');

const readinessCases: { name: string; given: Partial<FleetStatusData>; want: Partial<ClusterSummary> }[] = [
  {
    name: 'a cluster whose agent reports Ready True is Ready with no message',
    given: { reports: new Map([['m1', report('m1', { clusterStatus: ready('True') })]]) },
    want: { ready: 'True' },
  },
  {
    name: 'a cluster whose agent reports Ready False says the reason and message',
    given: {
      reports: new Map([
        [
          'm1',
          report('m1', { clusterStatus: ready('False', { reason: 'NodesDown', message: '0/3 nodes' }) }),
        ],
      ]),
    },
    want: { ready: 'False', readyMessage: 'NodesDown: 0/3 nodes' },
  },
  {
    name: 'the monitor verdict on the bindings head wins over a stale Ready True',
    given: {
      reports: new Map([['m1', report('m1', { clusterStatus: ready('True') })]]),
      judged: new Map([['m1', 'Unknown']]),
    },
    want: {
      ready: 'Unknown',
      readyMessage: "judged Unknown by the hub's cluster monitor: its agent stopped renewing its heartbeat",
    },
  },
  {
    name: 'an unreadable status branch wins over everything and says why',
    given: {
      unreadable: new Map([['m1', 'cluster.yaml is not YAML: bad indentation']]),
      judged: new Map([['m1', 'Unknown']]),
    },
    want: { ready: 'Unreadable', readyMessage: 'cluster.yaml is not YAML: bad indentation' },
  },
  {
    name: 'a cluster with a branch but no status branch has not reported',
    given: { renderedHeads: new Map([['m1', h1]]) },
    want: {
      ready: 'NotReported',
      readyMessage: 'no status branch: its agent has not reported',
      renderedCommit: h1,
    },
  },
  {
    name: 'a report without a Ready condition is Unknown',
    given: { reports: new Map([['m1', report('m1')]]) },
    want: { ready: 'Unknown', readyMessage: 'the agent reported no Ready condition' },
  },
];

for (const { name, given, want } of readinessCases) {
  test(name, () => {
    const [summary] = summarizeClusters(aFleetStatus(given), now);
    assert.ok(summary);
    const picked = Object.fromEntries(Object.keys(want).map((k) => [k, summary[k as keyof ClusterSummary]]));
    assert.deepEqual(picked, want);
    if (!('readyMessage' in want)) assert.equal(summary.readyMessage, undefined);
  });
}

test('a cluster summary counts its objects by health and failure, with its commits, distance and ages by the clock given', () => {
  const data = aFleetStatus({
    reports: new Map([
      [
        'm1',
        report('m1', {
          appliedCommit: h1,
          clusterStatus: {
            ...ready('True'),
            kubernetesVersion: 'v1.31.2',
            nodeSummary: { totalNum: 3, readyNum: 2 },
          },
          objects: [
            { ref: web.resource, applied: true, health: 'Healthy' },
            { ref: settings.resource, applied: true, health: 'Degraded' },
            { ref: { ...settings.resource, name: 'a' }, applied: true, health: 'Progressing' },
            { ref: { ...settings.resource, name: 'b' }, applied: true, health: 'Unknown' },
            {
              ref: { ...settings.resource, name: 'c' },
              applied: false,
              message: 'forbidden',
              health: 'Unknown',
            },
          ],
        }),
      ],
    ]),
    renderedHeads: new Map([['m1', h2]]),
    behind: new Map([['m1', { type: 'Behind', commits: 3 }]]),
    reportTimes: new Map([['m1', '2026-12-01T11:55:00.000Z']]),
    heartbeatTimes: new Map([['m1', '2026-12-01T12:00:05.000Z']]),
  });
  assert.deepEqual(summarizeClusters(data, now), [
    {
      cluster: 'm1',
      ready: 'True',
      kubernetesVersion: 'v1.31.2',
      nodes: { ready: 2, total: 3 },
      renderedCommit: h2,
      appliedCommit: h1,
      behind: { type: 'Behind', commits: 3 },
      objects: { total: 5, healthy: 1, progressing: 1, degraded: 1, unknown: 1, failed: 1 },
      reportedAt: '2026-12-01T11:55:00.000Z',
      reportAgeSeconds: 300,
      // A heartbeat stamped after `now` (clocks apart) is 0 seconds old, never negative.
      heartbeatAt: '2026-12-01T12:00:05.000Z',
      heartbeatAgeSeconds: 0,
    },
  ]);
});

test('every cluster a branch, a report, an unreadable branch or a placement names gets one summary, by name', () => {
  const data = aFleetStatus({
    bindings: [web],
    renderedHeads: new Map([['m3', h1]]),
    unreadable: new Map([['m0', 'no cluster.yaml']]),
    reports: new Map([['m4', report('m4')]]),
  });
  assert.deepEqual(
    summarizeClusters(data, now).map((c) => c.cluster),
    ['m0', 'm1', 'm2', 'm3', 'm4'],
  );
});

test('a template summary rolls health up to the worst cluster, Degraded over Unknown over Progressing over Healthy', () => {
  const cases: {
    name: string;
    health: ('Healthy' | 'Progressing' | 'Degraded' | 'Unknown')[];
    want: string;
  }[] = [
    { name: 'all healthy', health: ['Healthy', 'Healthy'], want: 'Healthy' },
    { name: 'one progressing', health: ['Healthy', 'Progressing'], want: 'Progressing' },
    { name: 'unknown beats progressing', health: ['Unknown', 'Progressing'], want: 'Unknown' },
    { name: 'degraded beats unknown', health: ['Unknown', 'Degraded'], want: 'Degraded' },
  ];
  for (const c of cases) {
    const data = aFleetStatus({
      bindings: [web],
      reports: new Map(
        (['m1', 'm2'] as const).map((cluster, i) => [
          cluster,
          report(cluster, { objects: [{ ref: web.resource, applied: true, health: c.health[i]! }] }),
        ]),
      ),
    });
    assert.equal(summarizeTemplates(data)[0]!.health, c.want, c.name);
  }
});

test('a template summary gives its placement by cluster name, replicas, counts and the first problem', () => {
  const data = aFleetStatus({
    bindings: [web, settings],
    reports: new Map([
      ['m1', report('m1', { objects: [{ ref: web.resource, applied: true, health: 'Healthy' }] })],
      ['m2', report('m2', { appliedCommit: h1 })],
    ]),
    renderedHeads: new Map([
      ['m1', h1],
      ['m2', h2],
    ]),
  });
  const [settingsSummary, webSummary] = summarizeTemplates(data);
  assert.deepEqual(webSummary, {
    template: 'Deployment/shop/web',
    key: 'apps/Deployment/shop/web',
    policy: 'PropagationPolicy/shop/all',
    origin: 'policy',
    clusters: 2,
    replicas: 3,
    placement: [
      { cluster: 'm1', replicas: 2 },
      { cluster: 'm2', replicas: 1 },
    ],
    health: 'Unknown',
    counts: { healthy: 1, progressing: 0, degraded: 0, unknown: 0, notApplied: 1 },
    message: 'm2: not yet applied: cluster at a1a1a1a, rendered b2b2b2b',
  });
  // Objects without replicas say nothing about replicas per cluster.
  assert.deepEqual(settingsSummary!.placement, [{ cluster: 'm1' }]);
  assert.equal(settingsSummary!.message, 'm1: ConfigMap/shop/settings is not in the status of cluster m1');
});

test('a template placed nowhere is NotPlaced', () => {
  const data = aFleetStatus({ bindings: [view('ConfigMap', 'orphan', 0, [])] });
  assert.equal(summarizeTemplates(data)[0]!.health, 'NotPlaced');
});

test('for a cluster the hub aggregated, the recorded status stands for the objects the report does not carry', () => {
  const recorded: BindingView = {
    ...web,
    aggregatedStatus: [
      { clusterName: 'm1', applied: true, health: 'Degraded' },
      { clusterName: 'm2', applied: true, health: 'Healthy' },
    ],
  };
  const data = aFleetStatus({
    bindings: [recorded],
    // m1 applied its head: its recorded Degraded stands; m2 is behind: not yet applied, whatever was recorded.
    reports: new Map([
      ['m1', report('m1', { appliedCommit: h1 })],
      ['m2', report('m2', { appliedCommit: h1 })],
    ]),
    renderedHeads: new Map([
      ['m1', h1],
      ['m2', h2],
    ]),
    aggregatedByHub: new Set(['m1', 'm2']),
  });
  const [summary] = summarizeTemplates(data);
  assert.equal(summary!.health, 'Degraded');
  assert.deepEqual(summary!.counts, { healthy: 0, progressing: 0, degraded: 1, unknown: 0, notApplied: 1 });
  const clusters = summarizeClusters(data, now);
  assert.deepEqual(
    clusters.map((c) => c.objects),
    [
      { total: 1, healthy: 0, progressing: 0, degraded: 1, unknown: 0, failed: 0 },
      { total: 1, healthy: 1, progressing: 0, degraded: 0, unknown: 0, failed: 0 },
    ],
  );
});
