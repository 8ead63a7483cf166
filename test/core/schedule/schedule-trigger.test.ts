// When a binding is scheduled at all (Karmada's doScheduleBinding, pkg/scheduler/scheduler.go;
// core/schedule/schedule-trigger.ts), and what that means over several renders: a cluster that
// comes back gets nothing back until a reschedule is asked for, and a reschedule asked for
// happens once. Fresh mode (pkg/scheduler/core/division_algorithm.go dynamicFreshScale) for
// dynamic division.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Claim } from '../../../src/core/detect/detect-claims.js';
import type { Binding, PreviousBinding } from '../../../src/core/model/binding.js';
import type { ClusterStatus } from '../../../src/core/model/cluster.js';
import type { Template } from '../../../src/core/model/fleet.js';
import type { Placement } from '../../../src/core/model/propagation-policy.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';
import { bindingRecord, parseBindingRecord } from '../../../src/core/publish/binding-record.js';
import { previousBindingOf } from '../../../src/core/publish/previous-binding-of.js';
import { bindClaim } from '../../../src/core/schedule/bind-claims.js';
import { divideByAvailableReplicas } from '../../../src/core/schedule/divide-by-available-replicas.js';
import {
  appliedPlacementText,
  scheduleTrigger,
  type ScheduleTriggerInput,
} from '../../../src/core/schedule/schedule-trigger.js';
import { aCluster, aDeployment, aPlacement, aPropagationPolicy } from '../builders.js';

const clusters = [aCluster('m1'), aCluster('m2'), aCluster('m3')];
const divided = (extra: Partial<Placement> = {}): Placement =>
  aPlacement({
    replicaScheduling: {
      replicaSchedulingType: 'Divided',
      replicaDivisionPreference: 'Weighted',
      weightPreference: {
        staticWeightList: ['m1', 'm2', 'm3'].map((name) => ({
          targetCluster: { clusterNames: [name] },
          weight: 1,
        })),
      },
    },
    ...extra,
  });
const policyRef = { kind: 'PropagationPolicy' as const, namespace: 'default', name: 'web' };
const previousWith = (
  placement: Placement,
  spread: Record<string, number>,
  extra: Partial<PreviousBinding> = {},
): PreviousBinding => ({
  key: 'apps/Deployment/default/web',
  policy: policyRef,
  clusters: Object.entries(spread).map(([name, replicas]) => ({ name, replicas })),
  appliedPlacement: appliedPlacementText(placement),
  ...extra,
});
const withoutApplied = ({ appliedPlacement: _applied, ...rest }: PreviousBinding): PreviousBinding => rest;
const T1 = '2026-12-01T15:00:00.000Z';
const T2 = '2026-12-01T16:00:00.000Z';

const rows: { name: string; input: Partial<ScheduleTriggerInput>; want: string | undefined }[] = [
  {
    name: 'A binding never scheduled is scheduled.',
    input: { previous: undefined },
    want: 'PlacementChanged',
  },
  {
    name: 'A record without an applied placement (written before it was kept) is scheduled.',
    input: { previous: withoutApplied(previousWith(divided(), { m1: 3, m3: 3 })) },
    want: 'PlacementChanged',
  },
  {
    name: 'An unreadable applied placement is scheduled (the next record is written right).',
    input: { previous: previousWith(divided(), { m1: 3, m3: 3 }, { appliedPlacement: '{not json' }) },
    want: 'PlacementChanged',
  },
  {
    name: 'Divided, the same placement, replicas adding up: the previous clusters stay.',
    input: { previous: previousWith(divided(), { m1: 3, m3: 3 }) },
    want: undefined,
  },
  {
    name: 'A changed toleration is a changed placement.',
    input: {
      previous: previousWith(divided({ clusterTolerations: [{ key: 'x', operator: 'Exists' }] }), {
        m1: 3,
        m3: 3,
      }),
    },
    want: 'PlacementChanged',
  },
  {
    name: 'Replicas that no longer add up (a scale, or a cluster evicted) are rescheduled.',
    input: { previous: previousWith(divided(), { m1: 3 }) },
    want: 'ReplicasChanged',
  },
  {
    name: 'A reschedule asked for after the last one is made.',
    input: {
      previous: previousWith(
        divided(),
        { m1: 3, m3: 3 },
        { rescheduleTriggeredAt: T2, lastScheduledTime: T1 },
      ),
    },
    want: 'RescheduleTriggered',
  },
  {
    name: 'A reschedule asked for on a binding never rescheduled on request is made.',
    input: { previous: previousWith(divided(), { m1: 3, m3: 3 }, { rescheduleTriggeredAt: T1 }) },
    want: 'RescheduleTriggered',
  },
  {
    name: 'A reschedule made already (lastScheduledTime = its time) is not made again.',
    input: {
      previous: previousWith(
        divided(),
        { m1: 3, m3: 3 },
        { rescheduleTriggeredAt: T1, lastScheduledTime: T1 },
      ),
    },
    want: undefined,
  },
  {
    name: 'A trigger older than the last reschedule asks nothing.',
    input: {
      previous: previousWith(
        divided(),
        { m1: 3, m3: 3 },
        { rescheduleTriggeredAt: T1, lastScheduledTime: T2 },
      ),
    },
    want: undefined,
  },
  {
    name: 'Duplicated is always scheduled.',
    input: { placement: aPlacement(), previous: previousWith(aPlacement(), { m1: 6, m3: 6 }) },
    want: 'Duplicated',
  },
  {
    name: 'Not a workload (no replicas, no requests) is always scheduled, even Divided.',
    input: { replicas: 0, isWorkload: false, previous: previousWith(divided(), {}) },
    want: 'Duplicated',
  },
  {
    name: 'A previous cluster no longer registered asks for a schedule.',
    input: {
      clusters: [aCluster('m1'), aCluster('m2')],
      previous: previousWith(divided(), { m1: 3, m3: 3 }),
    },
    want: 'ClusterDeregistered',
  },
];

const terms = (second: string[]) =>
  divided({
    clusterAffinities: [
      { affinityName: 'first', clusterNames: ['m1'] },
      { affinityName: 'second', clusterNames: second },
    ],
  });
rows.push(
  {
    name: 'clusterAffinities: a change of a term not in use asks nothing.',
    input: {
      placement: terms(['m2', 'm3']),
      previous: previousWith(terms(['m2']), { m1: 6 }, { affinityName: 'first' }),
    },
    want: undefined,
  },
  {
    name: 'clusterAffinities: a change of the term in use is a changed placement.',
    input: {
      placement: terms(['m2', 'm3']),
      previous: previousWith(terms(['m2']), { m2: 6 }, { affinityName: 'second' }),
    },
    want: 'PlacementChanged',
  },
  {
    name: 'clusterAffinities: with no term observed, any change is a changed placement.',
    input: { placement: terms(['m2', 'm3']), previous: previousWith(terms(['m2']), { m1: 6 }) },
    want: 'PlacementChanged',
  },
);

for (const row of rows) {
  test(row.name, () => {
    const input: ScheduleTriggerInput = {
      placement: divided(),
      replicas: 6,
      isWorkload: true,
      previous: undefined,
      clusters,
      ...row.input,
    };
    assert.equal(scheduleTrigger(input), row.want);
  });
}

// Renders of one Divided Deployment (6 replicas, static weights 1:1:1) over m1, m2, m3.
const ref: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' };
const template: Template = {
  ref,
  key: refKey(ref),
  object: aDeployment('web', { replicas: 6 }),
  source: { file: 'web.yaml', index: 0 },
};
const policy = aPropagationPolicy('web', [{ apiVersion: 'apps/v1', kind: 'Deployment' }], {
  placement: divided(),
});
const notReady: ClusterStatus = { conditions: [{ type: 'Ready', status: 'False' }] };

function render(previous: PreviousBinding | undefined, status: Record<string, ClusterStatus> = {}): Binding {
  const claim: Claim = { template, policy, how: previous ? 'sticky' : 'matched' };
  return bindClaim(claim, { clusters, clusterStatus: new Map(Object.entries(status)) }, previous).binding;
}

/** The binding's record as the next render reads it (the reschedule times are carried as the record keeps them). */
function recorded(binding: Binding): PreviousBinding {
  const read = parseBindingRecord(bindingRecord(binding))!;
  assert.deepEqual(read, previousBindingOf(binding), 'the record and the in-memory placement agree');
  return {
    ...read,
    ...(binding.rescheduleTriggeredAt ? { rescheduleTriggeredAt: binding.rescheduleTriggeredAt } : {}),
    ...(binding.lastScheduledTime ? { lastScheduledTime: binding.lastScheduledTime } : {}),
  };
}

/** The previous binding with `cluster` evicted, as applyEvictions leaves it. */
function evicted(previous: PreviousBinding, cluster: string): PreviousBinding {
  return { ...previous, clusters: previous.clusters.filter((c) => c.name !== cluster) };
}

const spread = (b: Binding) =>
  b.schedule.type === 'Scheduled'
    ? b.schedule.clusters.map((c) => `${c.name}:${c.replicas}`).join(' ')
    : 'NoFit';

test('A cluster that comes back gets nothing back (Divided static weights).', () => {
  const first = render(undefined);
  assert.equal(spread(first), 'm1:2 m2:2 m3:2');
  // m2 goes away: evicted, and NotReady (it passes the filters no more).
  const failedOver = render(evicted(recorded(first), 'm2'), { m2: notReady });
  assert.equal(spread(failedOver), 'm1:3 m3:3');
  // m2 is Ready again: pass after pass, the replicas stay where they are.
  const back = render(recorded(failedOver));
  assert.equal(spread(back), 'm1:3 m3:3');
  assert.equal(spread(render(recorded(back))), 'm1:3 m3:3');
});

test('A rebalancer moves it back, once.', () => {
  const failedOver = render(evicted(recorded(render(undefined)), 'm2'), { m2: notReady });
  const back = render(recorded(failedOver));
  // A WorkloadRebalancer sets rescheduleTriggeredAt on the previous binding (core/failover/rebalance.ts).
  const rebalanced = render({ ...recorded(back), rescheduleTriggeredAt: T1 });
  assert.equal(spread(rebalanced), 'm1:2 m2:2 m3:2');
  assert.equal(rebalanced.lastScheduledTime, T1, 'the trigger is consumed');
  assert.equal(rebalanced.rescheduleTriggeredAt, T1);
  // m2 fails over again and comes back: the old trigger does not move it back a second time.
  const again = render(evicted(recorded(rebalanced), 'm2'), { m2: notReady });
  assert.equal(spread(again), 'm1:3 m3:3');
  assert.equal(again.lastScheduledTime, T1);
  assert.equal(spread(render(recorded(again))), 'm1:3 m3:3');
});

test('A placement change moves the binding; the record then holds the new applied placement.', () => {
  const first = render(undefined);
  const moved = bindClaim(
    {
      template,
      policy: { ...policy, placement: divided({ clusterAffinity: { clusterNames: ['m1', 'm3'] } }) },
      how: 'sticky',
    },
    { clusters, clusterStatus: new Map() },
    recorded(first),
  ).binding;
  assert.equal(spread(moved), 'm1:3 m3:3');
  assert.equal(
    moved.appliedPlacement,
    appliedPlacementText(divided({ clusterAffinity: { clusterNames: ['m1', 'm3'] } })),
  );
});

test('A failed schedule keeps the applied placement it had, so the next render tries again.', () => {
  const first = render(undefined);
  const tooBig: Template = { ...template, object: aDeployment('web', { replicas: 9 }) };
  const dynamic = divided();
  dynamic.replicaScheduling = {
    replicaSchedulingType: 'Divided',
    replicaDivisionPreference: 'Weighted',
    weightPreference: { dynamicWeight: 'AvailableReplicas' },
  };
  const claim: Claim = { template: tooBig, policy: { ...policy, placement: dynamic }, how: 'sticky' };
  const noRoom = new Map<string, ClusterStatus>(
    ['m1', 'm2', 'm3'].map((n) => [
      n,
      { resourceSummary: { allocatable: { cpu: '0', memory: '0', pods: '0' } } },
    ]),
  );
  const failed = bindClaim(claim, { clusters, clusterStatus: noRoom }, recorded(first)).binding;
  assert.equal(failed.schedule.type === 'Scheduled' && failed.schedule.failed?.reason, 'Unschedulable');
  assert.equal(failed.appliedPlacement, first.appliedPlacement);
});

test('Fresh mode divides the whole total by what each cluster can take plus what it holds.', () => {
  const detail = (name: string, allocatable: number, held: number) => ({
    name,
    cluster: aCluster(name),
    score: 0,
    availableReplicas: allocatable + held,
    allocatableReplicas: allocatable,
  });
  const candidates = [detail('m1', 0, 6), detail('m2', 6, 0), detail('m3', 6, 0)];
  const options = {
    strategy: 'DynamicWeight' as const,
    replicas: 6,
    candidates,
    previous: [{ name: 'm1', replicas: 6 }],
    key: 'apps/Deployment/default/web',
  };
  const steady = divideByAvailableReplicas(options);
  assert.deepEqual(
    steady,
    { ok: true, clusters: [{ name: 'm1', replicas: 6 }] },
    'Steady keeps the previous result',
  );
  const fresh = divideByAvailableReplicas({ ...options, fresh: true });
  assert.ok(fresh.ok);
  assert.deepEqual(fresh.clusters.map((c) => `${c.name}:${c.replicas}`).sort(), ['m1:2', 'm2:2', 'm3:2']);
  const aggregated = divideByAvailableReplicas({ ...options, strategy: 'Aggregated', fresh: true });
  assert.ok(aggregated.ok);
  assert.equal(
    aggregated.clusters.reduce((s, c) => s + c.replicas, 0),
    6,
  );
  assert.equal(aggregated.clusters.length, 1, 'Aggregated still uses as few clusters as it can');
});
