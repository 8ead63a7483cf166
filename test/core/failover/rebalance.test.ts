// Karmada's WorkloadRebalancer controller on the hub (core/failover/rebalance.ts): the status
// record on the bindings branch, the trigger set once at the first-seen time, Failed for a
// workload without a binding, Karmada's status sync on a spec change, and the TTL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkloadRebalancer } from '../../../src/core/model/failover.js';
import {
  parseRebalancerRecord,
  planRebalancers,
  rebalancersDir,
} from '../../../src/core/failover/rebalance.js';
import { aBinding, anEvictionInput, previousOf, webKey } from './failover-fixtures.js';

const t0 = Date.parse('2026-12-01T15:00:00.000Z');
const seen = '2026-12-01T15:00:00.000Z';
const web = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
const gone = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'gone' };
const demo = (workloads: WorkloadRebalancer['workloads'], ttl?: number): WorkloadRebalancer => ({
  name: 'demo',
  workloads,
  ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}),
  source: { file: 'rebalance/demo.yaml', index: 0 },
});
const path = `${rebalancersDir}demo.yaml`;
const binding = aBinding({ member1: 3, member3: 3 });

function plan(
  nowMs: number,
  rebalancer: WorkloadRebalancer,
  recorded = new Map<string, string>(),
  extra = {},
) {
  return planRebalancers(
    anEvictionInput({
      nowMs,
      bindings: [binding],
      fleet: { workloadRebalancers: [rebalancer] },
      recorded,
      ...extra,
    }),
  );
}

test('A new rebalancer sets the trigger at the time the hub first saw it, and records its status.', () => {
  const out = plan(t0, demo([web, gone]));
  assert.equal(out.changed, true);
  assert.equal(out.previous.get(webKey)!.rescheduleTriggeredAt, seen);
  assert.deepEqual(out.decisions, [
    {
      type: 'Rebalanced',
      binding: webKey,
      reason: 'RescheduleTriggered',
      message: `demo: ${webKey}: a fresh schedule asked for at ${seen} (WorkloadRebalancer/demo)`,
      policy: 'WorkloadRebalancer/demo',
    },
  ]);
  assert.deepEqual(parseRebalancerRecord(out.files.get(path)!), {
    name: 'demo',
    firstSeen: seen,
    observedWorkloads: [
      { workload: gone, result: 'Failed', reason: 'ReferencedBindingNotFound' },
      { workload: web, result: 'Successful' },
    ],
    finishTime: seen,
    expired: false,
  });
  assert.equal(out.wakeAt, undefined);
});

test('The next pass reads its record back and does nothing more: once.', () => {
  const first = plan(t0, demo([web]));
  const second = plan(t0 + 60_000, demo([web]), first.files, {
    previous: [previousOf(binding, { rescheduleTriggeredAt: seen, lastScheduledTime: seen })],
  });
  assert.equal(second.changed, false);
  assert.deepEqual(second.decisions, []);
  assert.equal(second.files.get(path), first.files.get(path), 'the record is kept as it was');
});

test('A binding already asked at that time or later is not asked again, and still counts as Successful.', () => {
  const later = '2026-12-01T16:00:00.000Z';
  const out = plan(t0, demo([web]), new Map(), {
    previous: [previousOf(binding, { rescheduleTriggeredAt: later })],
  });
  assert.equal(out.changed, false);
  assert.equal(out.previous.get(webKey)!.rescheduleTriggeredAt, later);
  assert.deepEqual(parseRebalancerRecord(out.files.get(path)!)!.observedWorkloads, [
    { workload: web, result: 'Successful' },
  ]);
});

test('A spec change does not reset it: a removed Failed entry goes, a removed Successful one stays, a new one is asked at the first-seen time.', () => {
  const first = plan(t0, demo([web, gone]));
  const other = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'api' };
  const apiBinding = aBinding(
    { member1: 2 },
    { name: 'api-deployment', key: 'apps/Deployment/shop/api', resource: other },
  );
  const edited = planRebalancers(
    anEvictionInput({
      nowMs: t0 + 60_000,
      bindings: [binding, apiBinding],
      previous: [
        previousOf(binding, { rescheduleTriggeredAt: seen, lastScheduledTime: seen }),
        previousOf(apiBinding),
      ],
      fleet: { workloadRebalancers: [demo([other])] },
      recorded: first.files,
    }),
  );
  assert.equal(edited.previous.get('apps/Deployment/shop/api')!.rescheduleTriggeredAt, seen);
  assert.equal(edited.decisions.length, 1);
  assert.deepEqual(parseRebalancerRecord(edited.files.get(path)!), {
    name: 'demo',
    firstSeen: seen,
    observedWorkloads: [
      { workload: other, result: 'Successful' },
      { workload: web, result: 'Successful' },
    ],
    finishTime: '2026-12-01T15:01:00.000Z',
    expired: false,
  });
});

test('ttlSecondsAfterFinished: the pass wakes when it runs out, then the record says expired and the rebalancer is ignored.', () => {
  const first = plan(t0, demo([web], 300));
  assert.equal(first.wakeAt?.getTime(), t0 + 300_000);
  const expired = plan(t0 + 300_000, demo([web], 300), first.files);
  assert.equal(parseRebalancerRecord(expired.files.get(path)!)!.expired, true);
  assert.equal(expired.wakeAt, undefined);
  // Edited after it expired: nothing happens (Karmada would have deleted it).
  const ignored = plan(t0 + 400_000, demo([web, gone], 300), expired.files);
  assert.equal(ignored.changed, false);
  assert.equal(ignored.files.get(path), expired.files.get(path));
});

test('ttlSecondsAfterFinished 0 expires in the pass that finished it, after the trigger is set.', () => {
  const out = plan(t0, demo([web], 0));
  assert.equal(out.changed, true);
  assert.equal(parseRebalancerRecord(out.files.get(path)!)!.expired, true);
});

test('A rebalancer removed from the fleet loses its record; added again it is a new one.', () => {
  const first = plan(t0, demo([web]));
  const removed = planRebalancers(
    anEvictionInput({ nowMs: t0 + 1000, bindings: [binding], recorded: first.files }),
  );
  assert.equal(removed.files.size, 0);
  const again = plan(t0 + 2000, demo([web]), removed.files, {
    previous: [previousOf(binding, { rescheduleTriggeredAt: seen, lastScheduledTime: seen })],
  });
  assert.equal(again.previous.get(webKey)!.rescheduleTriggeredAt, '2026-12-01T15:00:02.000Z');
  assert.equal(again.changed, true);
});

test('A cluster-scoped workload is looked up without a namespace; apiVersion is not used, as in Karmada.', () => {
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'reader' };
  const roleBinding = aBinding(
    { member1: 0 },
    {
      name: 'reader-clusterrole',
      key: 'rbac.authorization.k8s.io/ClusterRole//reader',
      resource: { ...role, namespace: '' },
    },
  );
  const out = planRebalancers(
    anEvictionInput({
      nowMs: t0,
      bindings: [roleBinding],
      fleet: { workloadRebalancers: [demo([{ ...role, apiVersion: 'rbac.authorization.k8s.io/v1beta1' }])] },
    }),
  );
  assert.equal(
    out.previous.get('rbac.authorization.k8s.io/ClusterRole//reader')!.rescheduleTriggeredAt,
    seen,
  );
});
