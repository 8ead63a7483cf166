// Karmada's default not-ready / unreachable NoExecute tolerations (core/failover/default-tolerations.ts)
// and what they do to the taint manager's timing (taint-evictions.ts); `now` injected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDefaultTolerations } from '../../../src/core/failover/default-tolerations.js';
import { taintEvictionRequests } from '../../../src/core/failover/taint-evictions.js';
import { newFailoverMemory } from '../../../src/core/failover/eviction-request.js';
import type { Binding } from '../../../src/core/model/binding.js';
import type { Toleration } from '../../../src/core/model/cluster.js';
import {
  defaultFailoverSettings,
  type FailoverSettings,
  type TimedTaint,
} from '../../../src/core/model/failover.js';
import { defaultFleetConfig } from '../../../src/core/model/fleet-config.js';
import { aCluster, aPlacement } from '../builders.js';

const notReady = (seconds: number): Toleration => ({
  key: 'cluster.karmada.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: seconds,
});
const unreachable = (seconds: number): Toleration => ({
  key: 'cluster.karmada.io/unreachable',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: seconds,
});

const rows: { name: string; given: Toleration[]; want: Toleration[] }[] = [
  {
    name: 'a policy with no toleration gets both, 300 s each',
    given: [],
    want: [notReady(300), unreachable(300)],
  },
  {
    name: 'its own unreachable toleration (same key, operator, effect) replaces that default, whatever its seconds',
    given: [unreachable(0)],
    want: [unreachable(0), notReady(300)],
  },
  {
    name: 'both its own: nothing is added',
    given: [notReady(10), unreachable(20)],
    want: [notReady(10), unreachable(20)],
  },
  {
    name: 'a toleration of another key or effect is not one of them: both are added after it',
    given: [{ key: 'cluster.karmada.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }],
    want: [
      { key: 'cluster.karmada.io/unreachable', operator: 'Exists', effect: 'NoSchedule' },
      notReady(300),
      unreachable(300),
    ],
  },
  {
    name: 'an Equal toleration of the key is not the Exists one (Kubernetes MatchToleration): the default is added',
    given: [{ key: 'cluster.karmada.io/not-ready', operator: 'Equal', effect: 'NoExecute' }],
    want: [
      { key: 'cluster.karmada.io/not-ready', operator: 'Equal', effect: 'NoExecute' },
      notReady(300),
      unreachable(300),
    ],
  },
];

for (const row of rows) {
  test(`default tolerations: ${row.name}`, () => {
    assert.deepEqual(withDefaultTolerations(row.given, defaultFailoverSettings), row.want);
  });
}

const t0 = Date.parse('2026-12-01T15:00:00.000Z');
const at = (seconds: number) => new Date(t0 + seconds * 1000);
const unreachableTaint: TimedTaint = {
  key: 'cluster.karmada.io/unreachable',
  effect: 'NoExecute',
  timeAdded: at(0).toISOString(),
};

function web(tolerations: Toleration[]): Binding {
  return {
    name: 'web-deployment',
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
    key: 'apps/Deployment/shop/web',
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'web' },
    origin: 'policy',
    replicas: 2,
    placement: aPlacement({ clusterTolerations: tolerations }),
    propagateDeps: false,
    conflictResolution: 'Abort',
    preserveResourcesOnDeletion: false,
    schedule: { type: 'Scheduled', clusters: [{ name: 'member2', replicas: 2 }] },
    requiredBy: [],
    overrides: 'all',
  };
}

function evictionsAt(seconds: number, binding: Binding, settings: FailoverSettings) {
  return taintEvictionRequests({
    now: at(seconds),
    settings,
    fleet: {
      templates: [],
      clusters: ['member1', 'member2'].map((n) => aCluster(n)),
      propagationPolicies: [],
      overridePolicies: [],
      config: defaultFleetConfig(),
    },
    bindings: [binding],
    previous: new Map(),
    clusterStatus: new Map(),
    clusterTaints: new Map([['member2', [unreachableTaint]]]),
    reports: new Map(),
    recorded: new Map(),
    memory: newFailoverMemory(),
  });
}

const enabled: FailoverSettings = { ...defaultFailoverSettings, enableNoExecuteTaintEviction: true };

test('default tolerations: an unreachable NoExecute taint waits 300 s before it evicts a policy that tolerates nothing', () => {
  const early = evictionsAt(299, web([]), enabled);
  assert.deepEqual(early.requests, [], 'a cluster gone for a moment keeps its workloads');
  assert.deepEqual(early.wakeAt, at(300));
  assert.deepEqual(
    evictionsAt(300, web([]), enabled).requests.map((r) => r.message),
    [
      'taint cluster.karmada.io/unreachable:NoExecute was tolerated for 300s from 2026-12-01T15:00:00.000Z on member2 by Deployment/shop/web (PropagationPolicy/shop/web)',
    ],
  );
});

test('default tolerations: --default-unreachable-toleration-seconds 0, or the policy’s own 0, evicts at once', () => {
  const flags = { ...enabled, defaultUnreachableTolerationSeconds: 0 };
  assert.equal(evictionsAt(0, web([]), flags).requests.length, 1);
  assert.equal(evictionsAt(0, web([unreachable(0)]), enabled).requests.length, 1);
});
