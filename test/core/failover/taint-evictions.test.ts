// The taint manager (core/failover/taint-evictions.ts): NoExecute taints against a binding's
// tolerations, the purge mode, the rate limit across passes, one rule per row; `now` injected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeNoExecute, taintEvictionRequests } from '../../../src/core/failover/taint-evictions.js';
import { newFailoverMemory, type FailoverMemory } from '../../../src/core/failover/eviction-request.js';
import type { EvictionInput } from '../../../src/core/failover/failover-input.js';
import type { Binding, PreviousBinding } from '../../../src/core/model/binding.js';
import type { Taint, Toleration } from '../../../src/core/model/cluster.js';
import {
  defaultFailoverSettings,
  type FailoverBehavior,
  type FailoverSettings,
  type TimedTaint,
} from '../../../src/core/model/failover.js';
import { defaultFleetConfig } from '../../../src/core/model/fleet-config.js';
import { aCluster, aPlacement } from '../builders.js';

const t0 = Date.parse('2026-12-01T15:00:00.000Z');
const at = (seconds: number) => new Date(t0 + seconds * 1000);
const down: TimedTaint = { key: 'example.com/down', effect: 'NoExecute', timeAdded: at(0).toISOString() };
const notReady: TimedTaint = {
  key: 'cluster.karmada.io/not-ready',
  effect: 'NoSchedule',
  timeAdded: at(0).toISOString(),
};
const enabled: FailoverSettings = { ...defaultFailoverSettings, enableNoExecuteTaintEviction: true };

function aBinding(
  name: string,
  clusters: string[],
  extra: { tolerations?: Toleration[]; failover?: FailoverBehavior; evictionTasksFrom?: string[] } = {},
): Binding {
  return {
    name: `${name}-deployment`,
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name },
    key: `apps/Deployment/shop/${name}`,
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name },
    origin: 'policy',
    replicas: 2,
    placement: aPlacement({ clusterTolerations: extra.tolerations ?? [] }),
    propagateDeps: false,
    conflictResolution: 'Abort',
    preserveResourcesOnDeletion: false,
    schedule: { type: 'Scheduled', clusters: clusters.map((c) => ({ name: c, replicas: 1 })) },
    requiredBy: [],
    overrides: 'all',
    ...(extra.failover ? { failover: extra.failover } : {}),
    ...(extra.evictionTasksFrom
      ? {
          evictionTasks: extra.evictionTasksFrom.map((fromCluster) => ({
            fromCluster,
            purgeMode: 'Gracefully' as const,
            reason: 'TaintUntolerated',
            producer: 'TaintManager',
            creationTimestamp: at(0).toISOString(),
          })),
        }
      : {}),
  };
}

function inputOf(opts: {
  now: Date;
  bindings: Binding[];
  taints?: Record<string, TimedTaint[]>;
  specTaints?: Record<string, Taint[]>;
  settings?: FailoverSettings;
  memory?: FailoverMemory;
  previous?: Map<string, PreviousBinding>;
}): EvictionInput {
  const names = ['member1', 'member2', 'member3'];
  return {
    now: opts.now,
    settings: opts.settings ?? enabled,
    fleet: {
      templates: [],
      clusters: names.map((n) => aCluster(n, { taints: opts.specTaints?.[n] ?? [] })),
      propagationPolicies: [],
      overridePolicies: [],
      config: defaultFleetConfig(),
    },
    bindings: opts.bindings,
    previous: opts.previous ?? new Map(),
    clusterStatus: new Map(),
    clusterTaints: new Map(Object.entries(opts.taints ?? { member2: [down] })),
    reports: new Map(),
    recorded: new Map(),
    memory: opts.memory ?? newFailoverMemory(),
  };
}

const tolerate = (seconds?: number): Toleration => ({
  key: 'example.com/down',
  operator: 'Exists',
  effect: 'NoExecute',
  ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}),
});

// judgeNoExecute, Karmada's needEviction: [taints, tolerations, now (s after t0)] → verdict.
const judgeRows: {
  name: string;
  taints: Taint[];
  tolerations: Toleration[];
  now: number;
  want: ReturnType<typeof judgeNoExecute>;
}[] = [
  { name: 'no NoExecute taint: tolerated', taints: [], tolerations: [], now: 0, want: { type: 'tolerated' } },
  {
    name: 'not tolerated: evict now',
    taints: [down],
    tolerations: [],
    now: 0,
    want: { type: 'evict', why: 'taint example.com/down:NoExecute is not tolerated' },
  },
  {
    name: 'tolerated without tolerationSeconds: forever',
    taints: [down],
    tolerations: [tolerate()],
    now: 10_000,
    want: { type: 'tolerated' },
  },
  {
    name: 'tolerated for 60s, 30s in: later, at timeAdded + 60s',
    taints: [down],
    tolerations: [tolerate(60)],
    now: 30,
    want: { type: 'later', at: t0 + 60_000 },
  },
  {
    name: 'tolerated for 60s, exactly 60s in: evict (the time has come)',
    taints: [down],
    tolerations: [tolerate(60)],
    now: 60,
    want: {
      type: 'evict',
      why: 'taint example.com/down:NoExecute was tolerated for 60s from 2026-12-01T15:00:00.000Z',
    },
  },
  {
    name: 'two taints, one untolerated: evict now',
    taints: [down, { key: 'other', effect: 'NoExecute', timeAdded: down.timeAdded } as TimedTaint],
    tolerations: [tolerate(60)],
    now: 0,
    want: { type: 'evict', why: 'taint other:NoExecute is not tolerated' },
  },
  {
    name: 'the earliest end over the used tolerations wins',
    taints: [down, { key: 'other', effect: 'NoExecute', timeAdded: at(-50).toISOString() } as TimedTaint],
    tolerations: [tolerate(60), { key: 'other', operator: 'Exists', tolerationSeconds: 100 }],
    now: 0,
    want: { type: 'later', at: t0 + 50_000 },
  },
  {
    name: 'a taint without timeAdded (a spec taint) counts in no toleration time',
    taints: [{ key: 'example.com/down', effect: 'NoExecute' }],
    tolerations: [tolerate(1)],
    now: 10_000,
    want: { type: 'tolerated' },
  },
];

for (const row of judgeRows) {
  test(`judgeNoExecute: ${row.name}`, () => {
    assert.deepEqual(judgeNoExecute(row.taints, row.tolerations, t0 + row.now * 1000), row.want);
  });
}

test('taint evictions: nothing without --enable-no-execute-taint-eviction', () => {
  const out = taintEvictionRequests(
    inputOf({
      now: at(0),
      bindings: [aBinding('web', ['member1', 'member2'])],
      settings: defaultFailoverSettings,
    }),
  );
  assert.deepEqual(out, { requests: [], decisions: [] });
});

test('taint evictions: an untolerated NoExecute taint evicts the binding from that cluster only', () => {
  const out = taintEvictionRequests(
    inputOf({ now: at(0), bindings: [aBinding('web', ['member1', 'member2'])] }),
  );
  assert.deepEqual(out.requests, [
    {
      binding: 'apps/Deployment/shop/web',
      cluster: 'member2',
      producer: 'TaintManager',
      reason: 'TaintUntolerated',
      message:
        'taint example.com/down:NoExecute is not tolerated on member2 by Deployment/shop/web (PropagationPolicy/shop/web)',
      purgeMode: 'Gracefully',
    },
  ]);
  assert.deepEqual(out.decisions, []);
  assert.equal(out.wakeAt, undefined);
});

test('taint evictions: NoSchedule taints evict nothing', () => {
  const out = taintEvictionRequests(
    inputOf({ now: at(0), bindings: [aBinding('web', ['member2'])], taints: { member2: [notReady] } }),
  );
  assert.deepEqual(out.requests, []);
});

test('taint evictions: a spec NoExecute taint evicts too', () => {
  const out = taintEvictionRequests(
    inputOf({
      now: at(0),
      bindings: [aBinding('web', ['member3'])],
      taints: {},
      specTaints: { member3: [{ key: 'maintenance', effect: 'NoExecute' }] },
    }),
  );
  assert.deepEqual(
    out.requests.map((r) => [r.cluster, r.message]),
    [
      [
        'member3',
        'taint maintenance:NoExecute is not tolerated on member3 by Deployment/shop/web (PropagationPolicy/shop/web)',
      ],
    ],
  );
});

test('taint evictions: tolerationSeconds not over yet: no request, wakeAt when it ends', () => {
  const binding = aBinding('web', ['member2'], { tolerations: [tolerate(300)] });
  const early = taintEvictionRequests(inputOf({ now: at(100), bindings: [binding] }));
  assert.deepEqual(early.requests, []);
  assert.deepEqual(early.wakeAt, at(300));
  const late = taintEvictionRequests(inputOf({ now: at(300), bindings: [binding] }));
  assert.deepEqual(
    late.requests.map((r) => r.message),
    [
      'taint example.com/down:NoExecute was tolerated for 300s from 2026-12-01T15:00:00.000Z on member2 by Deployment/shop/web (PropagationPolicy/shop/web)',
    ],
  );
});

// getPurgeMode: the binding's failover.cluster when set, else the hub's flag.
const purgeRows: {
  name: string;
  failover?: FailoverBehavior;
  flag: 'Directly' | 'Gracefully';
  want: string;
}[] = [
  { name: 'no failover.cluster: the flag (Gracefully)', flag: 'Gracefully', want: 'Gracefully' },
  { name: 'no failover.cluster: the flag (Directly)', flag: 'Directly', want: 'Directly' },
  {
    name: 'failover.cluster.purgeMode wins over the flag',
    failover: { cluster: { purgeMode: 'Directly' } },
    flag: 'Gracefully',
    want: 'Directly',
  },
  {
    name: 'failover.cluster with an empty purgeMode: Gracefully, whatever the flag',
    failover: { cluster: { purgeMode: '' as 'Gracefully' } },
    flag: 'Directly',
    want: 'Gracefully',
  },
  {
    name: 'failover.application only: the flag',
    failover: { application: { tolerationSeconds: 300, purgeMode: 'Never' } },
    flag: 'Directly',
    want: 'Directly',
  },
];

for (const row of purgeRows) {
  test(`taint evictions: purge mode: ${row.name}`, () => {
    const binding = aBinding('web', ['member2'], row.failover ? { failover: row.failover } : {});
    const settings = { ...enabled, noExecuteTaintEvictionPurgeMode: row.flag };
    const out = taintEvictionRequests(inputOf({ now: at(0), bindings: [binding], settings }));
    assert.deepEqual(
      out.requests.map((r) => r.purgeMode),
      [row.want],
    );
  });
}

test('taint evictions: a cluster the binding already has an eviction task for is not evicted twice', () => {
  const withTask = aBinding('web', ['member2'], { evictionTasksFrom: ['member2'] });
  assert.deepEqual(taintEvictionRequests(inputOf({ now: at(0), bindings: [withTask] })).requests, []);
  const plain = aBinding('api', ['member2']);
  const previous = new Map<string, PreviousBinding>([
    [
      plain.key,
      {
        key: plain.key,
        policy: plain.policy!,
        clusters: [{ name: 'member2', replicas: 1 }],
        evictionTasks: withTask.evictionTasks!,
      },
    ],
  ]);
  assert.deepEqual(taintEvictionRequests(inputOf({ now: at(0), bindings: [plain], previous })).requests, []);
});

test('taint evictions: followers (no policy) are left to their leaders', () => {
  const { policy: _policy, ...follower } = aBinding('cfg', ['member2']);
  void _policy;
  const out = taintEvictionRequests(
    inputOf({ now: at(0), bindings: [{ ...follower, origin: 'dependency' }] }),
  );
  assert.deepEqual(out.requests, []);
});

test('taint evictions: rate limit: a burst of three, the rest deferred until 1/rate seconds later, across passes', () => {
  const bindings = ['a', 'b', 'c', 'd', 'e'].map((n) => aBinding(n, ['member2']));
  const memory = newFailoverMemory();
  const settings = { ...enabled, resourceEvictionRate: 0.5 }; // one burst every 2 s
  const first = taintEvictionRequests(inputOf({ now: at(0), bindings, settings, memory }));
  assert.deepEqual(
    first.requests.map((r) => r.binding),
    ['a', 'b', 'c'].map((n) => `apps/Deployment/shop/${n}`),
  );
  assert.deepEqual(
    first.decisions.map((d) => [d.type, d.binding, d.cluster, d.reason]),
    ['d', 'e'].map((n) => ['EvictionDeferred', `apps/Deployment/shop/${n}`, 'member2', 'RateLimited']),
  );
  assert.match(
    first.decisions[0]!.message,
    /deferred to 2026-12-01T15:00:02.000Z \(--resource-eviction-rate 0.5\/s\)$/,
  );
  assert.deepEqual(first.wakeAt, at(2));
  assert.equal(memory.lastEvictionAt, t0);
  // The evicted three have left member2 (the second render); one second on, still too early.
  const rest = bindings.slice(3);
  const tooEarly = taintEvictionRequests(inputOf({ now: at(1), bindings: rest, settings, memory }));
  assert.deepEqual(tooEarly.requests, []);
  assert.equal(tooEarly.decisions.length, 2);
  assert.deepEqual(tooEarly.wakeAt, at(2));
  const next = taintEvictionRequests(inputOf({ now: at(2), bindings: rest, settings, memory }));
  assert.deepEqual(
    next.requests.map((r) => r.binding),
    ['d', 'e'].map((n) => `apps/Deployment/shop/${n}`),
  );
  assert.deepEqual(next.decisions, []);
  assert.equal(next.wakeAt, undefined);
  assert.equal(memory.lastEvictionAt, t0 + 2000);
});

test('taint evictions: rate 0 paces one burst per 1800 s (Karmada’s maxEvictionDelay)', () => {
  const bindings = ['a', 'b', 'c', 'd'].map((n) => aBinding(n, ['member2']));
  const settings = { ...enabled, resourceEvictionRate: 0 };
  const out = taintEvictionRequests(inputOf({ now: at(0), bindings, settings }));
  assert.equal(out.requests.length, 3);
  assert.deepEqual(out.wakeAt, at(1800));
});

test('taint evictions: wakeAt is the earliest of a toleration ending and the next burst, and after now', () => {
  const memory: FailoverMemory = { ...newFailoverMemory(), lastEvictionAt: t0 - 1000 };
  const bindings = [aBinding('a', ['member2']), aBinding('b', ['member2'], { tolerations: [tolerate(5)] })];
  const out = taintEvictionRequests(inputOf({ now: at(0), bindings, memory }));
  assert.deepEqual(out.requests, []);
  assert.deepEqual(out.wakeAt, at(1), 'the next burst (1 s on) comes before b’s toleration ends (5 s)');
  assert.ok(out.wakeAt!.getTime() > t0);
});
