// Karmada's application failover (pkg/controllers/applicationfailover): the timer per binding
// and cluster, tolerationSeconds, the eviction request's fields by purgeMode, state
// preservation and the clusters it is not run for. Time comes in as `now`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applicationFailoverRequests } from '../../../src/core/failover/application-failover.js';
import { newFailoverMemory } from '../../../src/core/failover/eviction-request.js';
import type { FailoverBehavior } from '../../../src/core/model/failover.js';
import type { HealthStatus } from '../../../src/core/health/health.js';
import { aBinding, anEvictionInput, aReport, previousOf, webKey } from './failover-fixtures.js';

const t0 = Date.parse('2026-12-01T15:00:00.000Z');
const s = 1000;
const application = (
  extra: Partial<NonNullable<FailoverBehavior['application']>> = {},
): FailoverBehavior => ({
  application: { tolerationSeconds: 30, purgeMode: 'Gracefully', gracePeriodSeconds: 600, ...extra },
});
const binding = aBinding({ member1: 2, member2: 2 }, { failover: application() });

/** Runs the step at each time with member2 in the given health; returns the last result and the memory. */
function runAt(steps: { at: number; health: HealthStatus }[], b = binding) {
  const memory = newFailoverMemory();
  let result: ReturnType<typeof applicationFailoverRequests> | undefined;
  for (const step of steps) {
    result = applicationFailoverRequests(
      anEvictionInput({
        nowMs: step.at,
        bindings: [b],
        reports: [
          aReport('member1', 'Healthy'),
          aReport('member2', step.health, { healthMessage: 'Pods pending' }),
        ],
        memory,
      }),
    );
  }
  return { result: result!, memory };
}

const timerRows: {
  name: string;
  steps: { at: number; health: HealthStatus }[];
  evicted: boolean;
  since?: number;
  wakeAt?: number;
}[] = [
  {
    name: 'First seen Degraded: the timer starts, nothing is evicted, the pass wakes when the toleration is over.',
    steps: [{ at: t0, health: 'Degraded' }],
    evicted: false,
    since: t0,
    wakeAt: t0 + 30 * s + 1,
  },
  {
    name: 'Progressing counts as unhealthy too (a Pod that never becomes ready).',
    steps: [{ at: t0, health: 'Progressing' }],
    evicted: false,
    since: t0,
    wakeAt: t0 + 30 * s + 1,
  },
  {
    name: 'Unhealthy for exactly tolerationSeconds: not yet (Karmada evicts once now is after the deadline).',
    steps: [
      { at: t0, health: 'Degraded' },
      { at: t0 + 30 * s, health: 'Degraded' },
    ],
    evicted: false,
    since: t0,
    wakeAt: t0 + 30 * s + 1,
  },
  {
    name: 'Unhealthy longer than tolerationSeconds: evicted.',
    steps: [
      { at: t0, health: 'Progressing' },
      { at: t0 + 10 * s, health: 'Degraded' },
      { at: t0 + 31 * s, health: 'Progressing' },
    ],
    evicted: true,
    since: t0,
  },
  {
    name: 'Healthy in between clears the timer: it starts again.',
    steps: [
      { at: t0, health: 'Degraded' },
      { at: t0 + 20 * s, health: 'Healthy' },
      { at: t0 + 31 * s, health: 'Degraded' },
    ],
    evicted: false,
    since: t0 + 31 * s,
    wakeAt: t0 + 61 * s + 1,
  },
  {
    name: 'Unknown clears the timer as Healthy does.',
    steps: [
      { at: t0, health: 'Degraded' },
      { at: t0 + 20 * s, health: 'Unknown' },
      { at: t0 + 40 * s, health: 'Degraded' },
    ],
    evicted: false,
    since: t0 + 40 * s,
    wakeAt: t0 + 70 * s + 1,
  },
  {
    name: 'Healthy: no timer, no wake-up.',
    steps: [{ at: t0, health: 'Healthy' }],
    evicted: false,
  },
];

for (const row of timerRows) {
  test(row.name, () => {
    const { result, memory } = runAt(row.steps);
    assert.deepEqual(
      result.requests.map((r) => r.cluster),
      row.evicted ? ['member2'] : [],
    );
    assert.equal(memory.unhealthySince.get(`${webKey} member2`), row.since);
    assert.equal(result.wakeAt?.getTime(), row.wakeAt);
    assert.equal(memory.unhealthySince.has(`${webKey} member1`), false);
  });
}

test('tolerationSeconds 0 evicts at the next pass, a millisecond later or more.', () => {
  const zero = aBinding({ member1: 2, member2: 2 }, { failover: application({ tolerationSeconds: 0 }) });
  const first = runAt([{ at: t0, health: 'Degraded' }], zero);
  assert.equal(first.result.requests.length, 0);
  assert.equal(first.result.wakeAt?.getTime(), t0 + 1);
  const later = runAt(
    [
      { at: t0, health: 'Degraded' },
      { at: t0 + 1, health: 'Degraded' },
    ],
    zero,
  );
  assert.equal(later.result.requests.length, 1);
});

const requestRows: { name: string; failover: FailoverBehavior; want: Record<string, unknown> }[] = [
  {
    name: 'Gracefully: the grace period goes with the request.',
    failover: application({ purgeMode: 'Gracefully', gracePeriodSeconds: 120 }),
    want: { purgeMode: 'Gracefully', gracePeriodSeconds: 120 },
  },
  {
    name: 'Directly: no grace period.',
    failover: { application: { tolerationSeconds: 30, purgeMode: 'Directly' } },
    want: { purgeMode: 'Directly' },
  },
  {
    name: 'Never: the old copy stays until a person lets it go (suppressDeletion).',
    failover: { application: { tolerationSeconds: 30, purgeMode: 'Never' } },
    want: { purgeMode: 'Never', suppressDeletion: true },
  },
];

for (const row of requestRows) {
  test(row.name, () => {
    const b = aBinding({ member1: 2, member2: 2 }, { failover: row.failover });
    const { result } = runAt(
      [
        { at: t0, health: 'Degraded' },
        { at: t0 + 31 * s, health: 'Degraded' },
      ],
      b,
    );
    assert.deepEqual(result.requests, [
      {
        binding: webKey,
        cluster: 'member2',
        producer: 'ApplicationFailover',
        reason: 'ApplicationFailure',
        message:
          'apps/Deployment/shop/web on member2: Degraded (Pods pending) for 31s, more than the 30s PropagationPolicy/shop/web tolerates (failover.application)',
        ...row.want,
      },
    ]);
  });
}

test('State preservation: the labels are read from the old copy’s reflected status, with the clusters before the eviction.', () => {
  const b = aBinding(
    { member1: 2, member2: 2 },
    {
      failover: {
        application: {
          tolerationSeconds: 30,
          purgeMode: 'Directly',
          statePreservation: [
            { aliasLabelName: 'example.io/available', jsonPath: '{.availableReplicas}' },
            { aliasLabelName: 'example.io/first', jsonPath: '{.conditions[0].type}' },
          ],
        },
      },
    },
  );
  const memory = newFailoverMemory();
  memory.unhealthySince.set(`${webKey} member2`, t0);
  const result = applicationFailoverRequests(
    anEvictionInput({
      nowMs: t0 + 60 * s,
      bindings: [b],
      reports: [
        aReport('member1', 'Healthy'),
        aReport('member2', 'Degraded', {
          status: { availableReplicas: 1, conditions: [{ type: 'Available' }] },
        }),
      ],
      memory,
    }),
  );
  assert.equal(result.requests.length, 1);
  assert.deepEqual(result.requests[0]!.preservedLabelState, {
    'example.io/available': '1',
    'example.io/first': 'Available',
  });
  assert.deepEqual(result.requests[0]!.clustersBeforeFailover, ['member1', 'member2']);
});

test('State preservation with a missing key evicts nothing and says why in an EvictionDeferred decision.', () => {
  const b = aBinding(
    { member1: 2, member2: 2 },
    {
      failover: application({
        statePreservation: [{ aliasLabelName: 'ready', jsonPath: '{.readyReplicas}' }],
      }),
    },
  );
  const memory = newFailoverMemory();
  memory.unhealthySince.set(`${webKey} member2`, t0);
  const result = applicationFailoverRequests(
    anEvictionInput({
      nowMs: t0 + 60 * s,
      bindings: [b],
      reports: [
        aReport('member1', 'Healthy'),
        aReport('member2', 'Degraded', { status: { availableReplicas: 1 } }),
      ],
      memory,
    }),
  );
  assert.deepEqual(result.requests, []);
  assert.deepEqual(result.decisions, [
    {
      type: 'EvictionDeferred',
      cluster: 'member2',
      binding: webKey,
      reason: 'StatePreservationFailed',
      message:
        'apps/Deployment/shop/web on member2: unhealthy for 60s, not evicted: ready: jsonPath {.readyReplicas}: readyReplicas is not found (PropagationPolicy/shop/web failover.application.statePreservation)',
      policy: 'PropagationPolicy/shop/web',
    },
  ]);
  assert.equal(memory.unhealthySince.get(`${webKey} member2`), t0);
});

test('A report of an older cluster commit is no news: the timer is neither started, cleared nor acted on.', () => {
  const memory = newFailoverMemory();
  memory.unhealthySince.set(`${webKey} member2`, t0);
  const stale = (health: HealthStatus) =>
    applicationFailoverRequests(
      anEvictionInput({
        nowMs: t0 + 60 * s,
        bindings: [binding],
        reports: [aReport('member1', 'Healthy'), aReport('member2', health, { commit: 'old' })],
        clusterHeads: { member1: 'c-member1', member2: 'new' },
        memory,
      }),
    );
  assert.deepEqual(stale('Degraded').requests, []);
  assert.equal(memory.unhealthySince.get(`${webKey} member2`), t0);
  stale('Healthy');
  assert.equal(memory.unhealthySince.get(`${webKey} member2`), t0);
});

test('A report from a cluster the hub judges not Ready is no news: neither started, cleared nor acted on.', () => {
  const memory = newFailoverMemory();
  memory.unhealthySince.set(`${webKey} member2`, t0);
  const judged = (health: HealthStatus) => {
    const input = anEvictionInput({
      nowMs: t0 + 60 * s,
      bindings: [binding],
      reports: [aReport('member1', 'Healthy'), aReport('member2', health)],
      memory,
    });
    const status = { conditions: [{ type: 'Ready', status: 'Unknown' as const }] };
    return applicationFailoverRequests({ ...input, clusterStatus: new Map([['member2', status]]) });
  };
  assert.deepEqual(judged('Degraded').requests, [], 'its last report said Degraded: no eviction on it');
  assert.equal(memory.unhealthySince.get(`${webKey} member2`), t0);
  judged('Healthy');
  assert.equal(memory.unhealthySince.get(`${webKey} member2`), t0);
});

test('A cluster the binding is being evicted from is not judged again, and its timer is dropped.', () => {
  const memory = newFailoverMemory();
  memory.unhealthySince.set(`${webKey} member2`, t0);
  const task = {
    fromCluster: 'member2',
    purgeMode: 'Gracefully' as const,
    reason: 'ApplicationFailure',
    producer: 'ApplicationFailover',
    creationTimestamp: '2026-12-01T15:00:30.000Z',
  };
  const result = applicationFailoverRequests(
    anEvictionInput({
      nowMs: t0 + 60 * s,
      bindings: [binding],
      previous: [previousOf(binding, { evictionTasks: [task] })],
      reports: [aReport('member1', 'Healthy'), aReport('member2', 'Degraded')],
      memory,
    }),
  );
  assert.deepEqual(result.requests, []);
  assert.equal(memory.unhealthySince.size, 0);
});

test('A binding without failover.application is not judged; a timer of a cluster it left is dropped.', () => {
  const memory = newFailoverMemory();
  memory.unhealthySince.set(`${webKey} member3`, t0);
  const plain = aBinding({ member1: 2, member2: 2 });
  const result = applicationFailoverRequests(
    anEvictionInput({
      nowMs: t0 + 60 * s,
      bindings: [plain],
      reports: [aReport('member1', 'Degraded'), aReport('member2', 'Degraded')],
      memory,
    }),
  );
  assert.deepEqual(result.requests, []);
  assert.equal(result.wakeAt, undefined);
  assert.equal(memory.unhealthySince.size, 0);
});

test('An object not applied reads as Unknown: the timer is cleared.', () => {
  const memory = newFailoverMemory();
  memory.unhealthySince.set(`${webKey} member2`, t0);
  applicationFailoverRequests(
    anEvictionInput({
      nowMs: t0 + 60 * s,
      bindings: [binding],
      reports: [aReport('member1', 'Healthy'), aReport('member2', 'Degraded', { applied: false })],
      memory,
    }),
  );
  assert.equal(memory.unhealthySince.has(`${webKey} member2`), false);
});
