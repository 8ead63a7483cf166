// Fleet disruption (core/failover/fleet-disruption.ts): the node lifecycle controller's zone
// states with the fleet as the zone, and the taint manager stopping its evictions in them
// (taint-evictions.ts); `now` injected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeFleetDisruption } from '../../../src/core/failover/fleet-disruption.js';
import { taintEvictionRequests } from '../../../src/core/failover/taint-evictions.js';
import { newFailoverMemory, type FailoverMemory } from '../../../src/core/failover/eviction-request.js';
import type { Binding } from '../../../src/core/model/binding.js';
import type { ClusterStatus } from '../../../src/core/model/cluster.js';
import {
  defaultFailoverSettings,
  type FailoverSettings,
  type TimedTaint,
} from '../../../src/core/model/failover.js';
import { defaultFleetConfig } from '../../../src/core/model/fleet-config.js';
import { aCluster, aPlacement } from '../builders.js';

const settings: FailoverSettings = { ...defaultFailoverSettings, enableNoExecuteTaintEviction: true };
const ready = (status: 'True' | 'False' | 'Unknown'): ClusterStatus => ({
  conditions: [{ type: 'Ready', status }],
});

/** `T`: Ready True, `F`: False, `U`: Unknown, `-`: no Ready condition yet; one letter per cluster. */
function statusOf(states: string): { names: string[]; status: Map<string, ClusterStatus> } {
  const names = [...states].map((_, i) => `m${i + 1}`);
  const status = new Map<string, ClusterStatus>();
  [...states].forEach((s, i) => {
    if (s !== '-') status.set(names[i]!, ready(s === 'T' ? 'True' : s === 'F' ? 'False' : 'Unknown'));
  });
  return { names, status };
}

const rows: { name: string; states: string; settings?: Partial<FailoverSettings>; want: [string, number] }[] =
  [
    { name: 'every cluster Ready: normal, the usual rate', states: 'TTT', want: ['normal', 0.5] },
    { name: 'all three not Ready: full disruption, no eviction', states: 'UUU', want: ['full', 0] },
    { name: 'the only cluster not Ready: full disruption', states: 'F', want: ['full', 0] },
    {
      name: 'two of three not Ready: normal, as the node controller wants more than 2',
      states: 'UUT',
      want: ['normal', 0.5],
    },
    {
      name: 'three of five not Ready (60%): partial, no eviction in a small fleet',
      states: 'UUFTT',
      want: ['partial', 0],
    },
    { name: 'three of six not Ready (50%): normal', states: 'UUUTTT', want: ['normal', 0.5] },
    {
      name: 'a threshold of 0.5 makes three of six partial',
      states: 'UUUTTT',
      settings: { unhealthyFleetThreshold: 0.5 },
      want: ['partial', 0],
    },
    {
      name: 'a fleet larger than --large-fleet-size-threshold evicts at the secondary rate',
      states: 'UUUUT',
      settings: { largeFleetSizeThreshold: 4 },
      want: ['partial', 0.01],
    },
    {
      name: 'clusters without a Ready condition are not counted: one Ready, none not Ready',
      states: '--T',
      want: ['normal', 0.5],
    },
    { name: 'no Ready condition anywhere: normal', states: '---', want: ['normal', 0.5] },
  ];

for (const row of rows) {
  test(`fleet disruption: ${row.name}`, () => {
    const { names, status } = statusOf(row.states);
    const d = judgeFleetDisruption(names, status, { ...settings, ...row.settings });
    assert.deepEqual([d.state, d.rate], row.want);
  });
}

const t0 = Date.parse('2026-12-01T15:00:00.000Z');
const down = (cluster: string): [string, TimedTaint[]] => [
  cluster,
  [{ key: 'cluster.karmada.io/unreachable', effect: 'NoExecute', timeAdded: new Date(t0).toISOString() }],
];

function binding(name: string, cluster: string): Binding {
  return {
    name: `${name}-deployment`,
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name },
    key: `apps/Deployment/shop/${name}`,
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name },
    origin: 'policy',
    replicas: 1,
    // Tolerates the unreachable taint for 0 s: evicted at once in a normal fleet.
    placement: aPlacement({
      clusterTolerations: [
        {
          key: 'cluster.karmada.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 0,
        },
      ],
    }),
    propagateDeps: false,
    conflictResolution: 'Abort',
    preserveResourcesOnDeletion: false,
    schedule: { type: 'Scheduled', clusters: [{ name: cluster, replicas: 1 }] },
    requiredBy: [],
    overrides: 'all',
  };
}

function passAt(seconds: number, states: string, memory: FailoverMemory) {
  const { names, status } = statusOf(states);
  const notReady = names.filter((n) => status.get(n)?.conditions?.[0]?.status !== 'True');
  return taintEvictionRequests({
    now: new Date(t0 + seconds * 1000),
    settings: { ...settings, resourceEvictionRate: 1000 },
    fleet: {
      templates: [],
      clusters: names.map((n) => aCluster(n)),
      propagationPolicies: [],
      overridePolicies: [],
      config: defaultFleetConfig(),
    },
    bindings: names.map((n) => binding(`app-${n}`, n)),
    previous: new Map(),
    clusterStatus: status,
    clusterTaints: new Map(notReady.map(down)),
    reports: new Map(),
    recorded: new Map(),
    memory,
  });
}

test('fleet disruption: every agent gone at once evicts nothing, says so once, and says when it ends', () => {
  const memory = newFailoverMemory();
  const first = passAt(0, 'UUU', memory);
  assert.deepEqual(first.requests, [], 'no binding leaves any cluster');
  assert.deepEqual(
    first.decisions.map((d) => [d.type, d.reason]),
    [['FleetDisruption', 'FleetDisrupted']],
  );
  assert.match(
    first.decisions[0]!.message,
    /^3 of 3 clusters are not Ready \(m1, m2, m3\): no cluster is Ready; no NoExecute eviction until/,
  );
  const again = passAt(10, 'UUU', memory);
  assert.deepEqual([again.requests, again.decisions], [[], []], 'said once, not every pass');
  // Two come back: m1 alone is not Ready, the fleet is normal again and m1's binding is evicted.
  const back = passAt(20, 'UTT', memory);
  assert.deepEqual(
    back.decisions.map((d) => [d.type, d.reason]),
    [['FleetDisruption', 'FleetRecovered']],
  );
  assert.deepEqual(
    back.requests.map((r) => [r.binding, r.cluster]),
    [['apps/Deployment/shop/app-m1', 'm1']],
  );
});

test('fleet disruption: a fleet with one cluster down evicts from it as before', () => {
  const out = passAt(0, 'UTT', newFailoverMemory());
  assert.deepEqual(out.decisions, []);
  assert.deepEqual(
    out.requests.map((r) => r.cluster),
    ['m1'],
  );
});
