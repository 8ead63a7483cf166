// Graceful eviction in two steps (core/failover/apply-evictions.ts): applyEvictions is Karmada's
// GracefulEvictCluster on the previous bindings; assessEvictionTasks is the graceful eviction
// controller's verdict on each task. The hub's time is injected; the agents' reports are
// AgentReport values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Binding, PreviousBinding, TargetCluster } from '../../../src/core/model/binding.js';
import { defaultFailoverSettings, type GracefulEvictionTask } from '../../../src/core/model/failover.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';
import type { HealthStatus } from '../../../src/core/health/health.js';
import { applyEvictions, assessEvictionTasks } from '../../../src/core/failover/apply-evictions.js';
import { settleEndedTasks } from '../../../src/core/failover/settle-ended-tasks.js';
import type { EvictionRequest } from '../../../src/core/failover/eviction-request.js';
import { newFailoverMemory } from '../../../src/core/failover/eviction-request.js';
import type { EvictionInput } from '../../../src/core/failover/failover-input.js';
import type { AgentReport } from '../../../src/core/status/status-branch.js';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { aPlacement } from '../builders.js';

const web: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
const key = refKey(web);
const now = new Date('2026-12-01T15:00:00.000Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();

function previousOn(clusters: Record<string, number>, tasks?: GracefulEvictionTask[]): PreviousBinding {
  return {
    key,
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'web' },
    clusters: Object.entries(clusters).map(([name, replicas]) => ({ name, replicas })),
    ...(tasks ? { evictionTasks: tasks } : {}),
  };
}

function aRequest(extra: Partial<EvictionRequest> = {}): EvictionRequest {
  return {
    binding: key,
    cluster: 'member2',
    producer: 'TaintManager',
    reason: 'TaintUntolerated',
    message: 'taint cluster.karmada.io/not-ready:NoExecute not tolerated',
    purgeMode: 'Gracefully',
    ...extra,
  };
}

const applyRows: {
  name: string;
  previous: PreviousBinding;
  request: EvictionRequest;
  want: { clusters: TargetCluster[]; tasks?: GracefulEvictionTask[]; decisions: number };
}[] = [
  {
    name: 'the cluster leaves the binding and a task remembers its replicas',
    previous: previousOn({ member1: 2, member2: 2, member3: 2 }),
    request: aRequest({ gracePeriodSeconds: 120 }),
    want: {
      clusters: [
        { name: 'member1', replicas: 2 },
        { name: 'member3', replicas: 2 },
      ],
      tasks: [
        {
          fromCluster: 'member2',
          purgeMode: 'Gracefully',
          replicas: 2,
          reason: 'TaintUntolerated',
          message: 'taint cluster.karmada.io/not-ready:NoExecute not tolerated',
          producer: 'TaintManager',
          gracePeriodSeconds: 120,
          creationTimestamp: '2026-12-01T15:00:00.000Z',
        },
      ],
      decisions: 1,
    },
  },
  {
    name: 'a cluster with 0 replicas gives a task without replicas',
    previous: previousOn({ member1: 0, member2: 0 }),
    request: aRequest({ purgeMode: 'Directly' }),
    want: {
      clusters: [{ name: 'member1', replicas: 0 }],
      tasks: [
        {
          fromCluster: 'member2',
          purgeMode: 'Directly',
          reason: 'TaintUntolerated',
          message: 'taint cluster.karmada.io/not-ready:NoExecute not tolerated',
          producer: 'TaintManager',
          creationTimestamp: '2026-12-01T15:00:00.000Z',
        },
      ],
      decisions: 1,
    },
  },
  {
    name: 'purgeMode Never suppresses the deletion, and the producer’s state is kept',
    previous: previousOn({ member1: 1, member2: 3 }),
    request: aRequest({
      producer: 'ApplicationFailover',
      reason: 'ApplicationFailure',
      message: 'unhealthy for 300s',
      purgeMode: 'Never',
      preservedLabelState: { 'failover.example/replicas': '3' },
      clustersBeforeFailover: ['member1', 'member2'],
    }),
    want: {
      clusters: [{ name: 'member1', replicas: 1 }],
      tasks: [
        {
          fromCluster: 'member2',
          purgeMode: 'Never',
          replicas: 3,
          reason: 'ApplicationFailure',
          message: 'unhealthy for 300s',
          producer: 'ApplicationFailover',
          suppressDeletion: true,
          preservedLabelState: { 'failover.example/replicas': '3' },
          clustersBeforeFailover: ['member1', 'member2'],
          creationTimestamp: '2026-12-01T15:00:00.000Z',
        },
      ],
      decisions: 1,
    },
  },
  {
    name: 'a cluster the binding is not on: nothing happens',
    previous: previousOn({ member1: 2 }),
    request: aRequest(),
    want: { clusters: [{ name: 'member1', replicas: 2 }], decisions: 0 },
  },
  {
    name: 'a cluster with a task already: it leaves the binding, and no second task is made',
    previous: previousOn({ member1: 2, member2: 1 }, [
      {
        fromCluster: 'member2',
        purgeMode: 'Gracefully',
        reason: 'ApplicationFailure',
        producer: 'ApplicationFailover',
        creationTimestamp: minutesAgo(5),
      },
    ]),
    request: aRequest(),
    want: {
      clusters: [{ name: 'member1', replicas: 2 }],
      tasks: [
        {
          fromCluster: 'member2',
          purgeMode: 'Gracefully',
          reason: 'ApplicationFailure',
          producer: 'ApplicationFailover',
          creationTimestamp: minutesAgo(5),
        },
      ],
      decisions: 1,
    },
  },
];

for (const row of applyRows) {
  test(`applyEvictions: ${row.name}`, () => {
    const previous = new Map([[key, row.previous]]);
    const result = applyEvictions(previous, [row.request], now);
    const after = result.previous.get(key)!;
    assert.deepEqual(after.clusters, row.want.clusters);
    assert.deepEqual(after.evictionTasks, row.want.tasks);
    assert.equal(result.decisions.length, row.want.decisions);
    assert.equal(result.changed, row.want.decisions > 0);
    assert.equal(previous.get(key), row.previous, 'the input is left as it was');
  });
}

test('applyEvictions: the Evicted decision names the binding, the cluster, the reason and the producer’s detail', () => {
  const result = applyEvictions(new Map([[key, previousOn({ member2: 2 })]]), [aRequest()], now);
  assert.deepEqual(result.decisions, [
    {
      type: 'Evicted',
      cluster: 'member2',
      binding: key,
      reason: 'TaintUntolerated',
      message:
        'Deployment/shop/web from member2: TaintUntolerated (TaintManager, purgeMode Gracefully): taint cluster.karmada.io/not-ready:NoExecute not tolerated',
    },
  ]);
});

test('applyEvictions: a request for an unknown binding changes nothing', () => {
  const result = applyEvictions(
    new Map([[key, previousOn({ member2: 2 })]]),
    [aRequest({ binding: 'x' })],
    now,
  );
  assert.equal(result.changed, false);
  assert.deepEqual(result.decisions, []);
});

// ---- assessEvictionTasks

function aTask(extra: Partial<GracefulEvictionTask> = {}): GracefulEvictionTask {
  return {
    fromCluster: 'member2',
    purgeMode: 'Gracefully',
    replicas: 2,
    reason: 'TaintUntolerated',
    producer: 'TaintManager',
    creationTimestamp: minutesAgo(5),
    ...extra,
  };
}

/** The first render's binding of web, scheduled on these clusters (or failed). */
function boundOn(clusters: Record<string, number>, failed = false): Binding {
  return {
    name: 'web-deployment',
    resource: web,
    key,
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'web' },
    origin: 'policy',
    replicas: 4,
    placement: aPlacement(),
    propagateDeps: false,
    conflictResolution: 'Abort',
    preserveResourcesOnDeletion: false,
    schedule: {
      type: 'Scheduled',
      clusters: Object.entries(clusters).map(([name, replicas]) => ({ name, replicas })),
      ...(failed ? { failed: { reason: 'Unschedulable' as const, message: 'not enough room' } } : {}),
    },
    requiredBy: [],
    overrides: 'all',
  };
}

/** The first render's binding of web when no cluster fits it (a filter failure unless keepPrevious). */
function noFit(diagnosis: { cluster: string; onlyEviction?: true }[], keepPrevious = false): Binding {
  return {
    ...boundOn({}),
    schedule: {
      type: 'NoFit',
      diagnosis: diagnosis.map((d) => ({ filter: 'ClusterEviction', reason: 'being evicted', ...d })),
      message: '0/3 clusters are available',
      ...(keepPrevious ? { reason: 'Unschedulable' as const, keepPrevious: true } : {}),
    },
  };
}

/** An agent report of web on a cluster: applied at `commit`, with this health. */
function reportOf(cluster: string, health: HealthStatus, commit = `head-${cluster}`): AgentReport {
  return {
    cluster,
    appliedCommit: commit,
    objects: [{ ref: web, applied: true, health }],
  };
}

const emptyFleet = (() => {
  const loaded = loadFleet([]);
  assert.ok(loaded.ok);
  return loaded.fleet;
})();

function assessInput(opts: {
  task: GracefulEvictionTask;
  binding?: Binding;
  reports?: AgentReport[];
  timeoutSeconds?: number;
  /** The clusters' Ready condition (default: True on member1 to member3). */
  ready?: Record<string, 'True' | 'False' | 'Unknown'>;
}): EvictionInput {
  const binding = opts.binding ?? boundOn({ member1: 2, member3: 2 });
  const clusters = binding.schedule.type === 'Scheduled' ? binding.schedule.clusters : [];
  const ready = opts.ready ?? { member1: 'True', member2: 'True', member3: 'True' };
  return {
    now,
    settings: { ...defaultFailoverSettings, gracefulEvictionTimeoutSeconds: opts.timeoutSeconds ?? 600 },
    fleet: emptyFleet,
    bindings: [binding],
    previous: new Map([[key, previousOn({ member1: 2, member3: 2 }, [opts.task])]]),
    clusterStatus: new Map(
      Object.entries(ready).map(([c, status]) => [c, { conditions: [{ type: 'Ready', status }] }]),
    ),
    clusterTaints: new Map(),
    reports: new Map((opts.reports ?? []).map((r) => [r.cluster, r])),
    clusterHeads: new Map(clusters.map((c) => [c.name, `head-${c.name}`])),
    recorded: new Map(),
    memory: newFailoverMemory(),
  };
}

const healthyOnBoth = [reportOf('member1', 'Healthy'), reportOf('member3', 'Healthy')];

const assessRows: {
  name: string;
  given: Parameters<typeof assessInput>[0];
  /** 'kept', or the reason of the EvictionDone decision. */
  want: 'kept' | 'Timeout' | 'HealthyOnNewClusters' | 'DeletionConfirmed' | 'ClusterRecovered';
  /** The wakeAt when kept (absent: none). */
  wakeAt?: string;
}[] = [
  {
    name: 'the new clusters are healthy at their branch heads: done',
    given: { task: aTask(), reports: healthyOnBoth },
    want: 'HealthyOnNewClusters',
  },
  {
    name: 'one new cluster is still progressing: kept until the timeout',
    given: { task: aTask(), reports: [reportOf('member1', 'Healthy'), reportOf('member3', 'Progressing')] },
    want: 'kept',
    wakeAt: '2026-12-01T15:05:00.000Z',
  },
  {
    name: 'one new cluster has not reported: kept',
    given: { task: aTask(), reports: [reportOf('member1', 'Healthy')] },
    want: 'kept',
    wakeAt: '2026-12-01T15:05:00.000Z',
  },
  {
    name: 'a new cluster reports healthy about an older commit than its branch head: kept',
    given: {
      task: aTask(),
      reports: [reportOf('member1', 'Healthy'), reportOf('member3', 'Healthy', 'older')],
    },
    want: 'kept',
    wakeAt: '2026-12-01T15:05:00.000Z',
  },
  {
    name: 'the schedule still has the evicted cluster (it has not seen the eviction): kept',
    given: {
      task: aTask(),
      binding: boundOn({ member1: 2, member2: 2 }),
      reports: [reportOf('member1', 'Healthy'), reportOf('member2', 'Healthy')],
    },
    want: 'kept',
    wakeAt: '2026-12-01T15:05:00.000Z',
  },
  {
    name: 'the schedule failed (Scheduled False): kept, whatever the health',
    given: { task: aTask(), binding: boundOn({ member1: 2, member3: 2 }, true), reports: healthyOnBoth },
    want: 'kept',
    wakeAt: '2026-12-01T15:05:00.000Z',
  },
  {
    name: 'a new cluster reports Healthy but the hub judges it not Ready (its agent is gone): kept',
    given: { task: aTask(), reports: healthyOnBoth, ready: { member1: 'True', member3: 'Unknown' } },
    want: 'kept',
    wakeAt: '2026-12-01T15:05:00.000Z',
  },
  {
    name: 'no cluster took it, and the evicted cluster is Ready and fails only the eviction filter: done, ClusterRecovered',
    given: { task: aTask(), binding: noFit([{ cluster: 'member2', onlyEviction: true }]) },
    want: 'ClusterRecovered',
  },
  {
    name: 'an application failover task is not ended by its cluster being back (the application failed, not the cluster): kept',
    given: {
      task: aTask({ producer: 'ApplicationFailover', reason: 'ApplicationFailure' }),
      binding: noFit([{ cluster: 'member2', onlyEviction: true }]),
    },
    want: 'kept',
    wakeAt: '2026-12-01T15:05:00.000Z',
  },
  {
    name: 'no cluster took it, the evicted cluster fits but is not Ready: kept',
    given: {
      task: aTask(),
      binding: noFit([{ cluster: 'member2', onlyEviction: true }]),
      ready: { member2: 'Unknown' },
    },
    want: 'kept',
    wakeAt: '2026-12-01T15:05:00.000Z',
  },
  {
    name: 'no cluster took it, the evicted cluster fails another filter too (still tainted): kept',
    given: { task: aTask(), binding: noFit([{ cluster: 'member2' }]) },
    want: 'kept',
    wakeAt: '2026-12-01T15:05:00.000Z',
  },
  {
    name: 'the schedule failed after filtering (it keeps its clusters): kept',
    given: {
      task: aTask(),
      binding: noFit([{ cluster: 'member2', onlyEviction: true }], true),
    },
    want: 'kept',
    wakeAt: '2026-12-01T15:05:00.000Z',
  },
  {
    name: 'the settings’ timeout has passed: done, Timeout',
    given: { task: aTask({ creationTimestamp: minutesAgo(11) }) },
    want: 'Timeout',
  },
  {
    name: 'the timeout ends exactly now: done, Timeout',
    given: { task: aTask({ creationTimestamp: minutesAgo(10) }) },
    want: 'Timeout',
  },
  {
    name: 'the task’s own gracePeriodSeconds wins over the settings',
    given: { task: aTask({ gracePeriodSeconds: 60, creationTimestamp: minutesAgo(2) }) },
    want: 'Timeout',
  },
  {
    name: 'a longer gracePeriodSeconds keeps it past the settings’ timeout, and wakes at its end',
    given: { task: aTask({ gracePeriodSeconds: 3600, creationTimestamp: minutesAgo(30) }) },
    want: 'kept',
    wakeAt: '2026-12-01T15:30:00.000Z',
  },
  {
    name: 'suppressDeletion true: kept for ever, even healthy and timed out, and no wake-up',
    given: {
      task: aTask({ purgeMode: 'Never', suppressDeletion: true, creationTimestamp: minutesAgo(60) }),
      reports: healthyOnBoth,
    },
    want: 'kept',
  },
  {
    name: 'suppressDeletion false (a person confirmed the deletion): done at once',
    given: { task: aTask({ purgeMode: 'Never', suppressDeletion: false }) },
    want: 'DeletionConfirmed',
  },
];

for (const row of assessRows) {
  test(`assessEvictionTasks: ${row.name}`, () => {
    const result = assessEvictionTasks(assessInput(row.given));
    const tasks = result.previous.get(key)!.evictionTasks;
    if (row.want === 'kept') {
      assert.deepEqual(tasks, [row.given.task]);
      assert.equal(result.changed, false);
      assert.deepEqual(result.decisions, []);
    } else {
      assert.equal(tasks, undefined, 'the record holds no task any more');
      assert.equal(result.changed, true);
      assert.deepEqual(
        result.decisions.map((d) => [d.type, d.cluster, d.binding, d.reason]),
        [['EvictionDone', 'member2', key, row.want]],
      );
    }
    assert.equal(result.wakeAt?.toISOString(), row.wakeAt);
  });
}

test('assessEvictionTasks: the EvictionDone decision says why, and what happens to the copy', () => {
  const result = assessEvictionTasks(assessInput({ task: aTask(), reports: healthyOnBoth }));
  assert.equal(
    result.decisions[0]?.message,
    'Deployment/shop/web from member2: HealthyOnNewClusters: applied and Healthy on member1, member3; its copy is removed (evicted for TaintUntolerated by TaintManager)',
  );
});

test('assessEvictionTasks: a task without a readable creationTimestamp is stamped with the hub’s time and kept', () => {
  const result = assessEvictionTasks(assessInput({ task: aTask({ creationTimestamp: '' }) }));
  assert.equal(result.changed, true);
  assert.deepEqual(result.previous.get(key)!.evictionTasks, [
    aTask({ creationTimestamp: now.toISOString() }),
  ]);
  assert.equal(result.wakeAt?.toISOString(), '2026-12-01T15:10:00.000Z');
});

test('assessEvictionTasks: of two tasks, the finished one is dropped and the other kept; wakeAt is the earliest end', () => {
  const input = assessInput({ task: aTask() });
  const tasks = [
    aTask({ fromCluster: 'member4', creationTimestamp: minutesAgo(20) }),
    aTask({ creationTimestamp: minutesAgo(8) }),
    aTask({ fromCluster: 'member5', creationTimestamp: minutesAgo(1) }),
  ];
  const result = assessEvictionTasks({
    ...input,
    previous: new Map([[key, previousOn({ member1: 2, member3: 2 }, tasks)]]),
  });
  assert.deepEqual(
    result.previous.get(key)!.evictionTasks?.map((t) => t.fromCluster),
    ['member2', 'member5'],
  );
  assert.deepEqual(
    result.decisions.map((d) => `${d.cluster} ${d.reason}`),
    ['member4 Timeout'],
  );
  assert.equal(result.wakeAt?.toISOString(), '2026-12-01T15:02:00.000Z');
});

test('assessEvictionTasks: ClusterRecovered says the cluster is back; settleEndedTasks says the copy stays when the render schedules it there', () => {
  const result = assessEvictionTasks(
    assessInput({ task: aTask(), binding: noFit([{ cluster: 'member2', onlyEviction: true }]) }),
  );
  assert.equal(
    result.decisions[0]?.message,
    'Deployment/shop/web from member2: ClusterRecovered: member2 is Ready and fits the placement again, and no other cluster took the workload; its copy is removed (evicted for TaintUntolerated by TaintManager)',
  );
  // The render that follows schedules web on member2 again: the copy never leaves.
  const settled = settleEndedTasks(result.decisions, result.ended, [boundOn({ member2: 2 })]);
  assert.equal(
    settled[0]?.message,
    'Deployment/shop/web from member2: ClusterRecovered: member2 is Ready and fits the placement again, and no other cluster took the workload; scheduled on member2 again, so its copy stays (evicted for TaintUntolerated by TaintManager)',
  );
  assert.equal(settled[0]?.copyKept, true);
});

test('settleEndedTasks: a timed-out task whose cluster the render schedules again keeps its copy, and says so', () => {
  const result = assessEvictionTasks(assessInput({ task: aTask({ creationTimestamp: minutesAgo(11) }) }));
  assert.deepEqual(
    result.decisions.map((d) => d.reason),
    ['Timeout'],
  );
  const away = settleEndedTasks(result.decisions, result.ended, [boundOn({ member1: 2, member3: 2 })]);
  assert.match(away[0]!.message, /; its copy is removed \(/, 'not scheduled there: the copy goes');
  assert.equal(away[0]!.copyKept, undefined);
  const back = settleEndedTasks(result.decisions, result.ended, [boundOn({ member1: 2, member2: 2 })]);
  assert.match(back[0]!.message, /; scheduled on member2 again, so its copy stays \(/);
  assert.doesNotMatch(back[0]!.message, /removed/);
});
