import { test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import type { Binding } from '../../../src/core/model/binding.js';
import {
  bindingRecord,
  parseBindingRecord,
  parseBindingView,
} from '../../../src/core/publish/binding-record.js';
import type { BindingStatus } from '../../../src/core/publish/binding-status.js';
import { previousBindingOf } from '../../../src/core/publish/previous-binding-of.js';
import { aPlacement } from '../builders.js';

const binding: Binding = {
  name: 'web-deployment',
  resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
  key: 'apps/Deployment/shop/web',
  policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'web' },
  origin: 'policy',
  replicas: 10,
  placement: aPlacement(),
  propagateDeps: true,
  conflictResolution: 'Abort',
  preserveResourcesOnDeletion: false,
  schedule: {
    type: 'Scheduled',
    clusters: [
      { name: 'm1', replicas: 4 },
      { name: 'm2', replicas: 6 },
    ],
    affinityName: 'primary',
  },
  requiredBy: [],
  overrides: 'all',
};

test('a binding record is a Karmada ResourceBinding with the claim and the scheduling result', () => {
  const doc = yaml.load(bindingRecord(binding)) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.equal(doc.apiVersion, 'work.karmada.io/v1alpha2');
  assert.equal(doc.kind, 'ResourceBinding');
  assert.equal(doc.metadata.annotations['propagationpolicy.karmada.io/name'], 'web');
  assert.deepEqual(doc.spec.clusters, [
    { name: 'm1', replicas: 4 },
    { name: 'm2', replicas: 6 },
  ]);
  assert.equal(doc.status.conditions[0].status, 'True');
});

test('a record reads back as the previous binding: claim, clusters and affinity group survive a restart', () => {
  assert.deepEqual(parseBindingRecord(bindingRecord(binding)), {
    key: 'apps/Deployment/shop/web',
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'web' },
    clusters: [
      { name: 'm1', replicas: 4 },
      { name: 'm2', replicas: 6 },
    ],
    affinityName: 'primary',
  });
});

test('cluster-scoped templates get a ClusterResourceBinding claimed by a ClusterPropagationPolicy', () => {
  const cluster: Binding = {
    ...binding,
    resource: { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop' },
    key: '/Namespace//shop',
    policy: { kind: 'ClusterPropagationPolicy', namespace: '', name: 'ns' },
  };
  assert.match(bindingRecord(cluster), /kind: ClusterResourceBinding/);
  assert.deepEqual(parseBindingRecord(bindingRecord(cluster))?.policy, {
    kind: 'ClusterPropagationPolicy',
    namespace: '',
    name: 'ns',
  });
});

test('followers and garbage are not claims', () => {
  const { policy: _policy, ...follower } = binding;
  assert.equal(parseBindingRecord(bindingRecord({ ...follower, origin: 'dependency' })), undefined);
  assert.equal(parseBindingRecord('::: not yaml'), undefined);
  assert.equal(parseBindingRecord('kind: Something\n'), undefined);
});

const status: BindingStatus = {
  aggregatedStatus: [
    { clusterName: 'm1', applied: true, health: 'Healthy', status: { replicas: 4, readyReplicas: 4 } },
    {
      clusterName: 'm2',
      applied: false,
      appliedMessage: 'cluster m2 has reported no status yet',
      health: 'Unknown',
    },
  ],
  fullyApplied: {
    status: 'False',
    reason: 'FullyAppliedFailed',
    message: 'Failed to apply all works, see status.aggregatedStatus for details',
  },
};

test('a record with status carries Karmada aggregatedStatus and a FullyApplied condition after Scheduled', () => {
  const doc = yaml.load(bindingRecord(binding, status)) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.deepEqual(doc.status.aggregatedStatus, status.aggregatedStatus);
  assert.deepEqual(
    doc.status.conditions.map((c: { type: string; status: string }) => [c.type, c.status]),
    [
      ['Scheduled', 'True'],
      ['FullyApplied', 'False'],
    ],
  );
  assert.equal(doc.status.conditions[1].reason, 'FullyAppliedFailed');
});

test('a record without status has no FullyApplied condition and no aggregatedStatus', () => {
  const text = bindingRecord(binding);
  assert.doesNotMatch(text, /FullyApplied|aggregatedStatus/);
});

test('status does not change what the next render reads back', () => {
  assert.deepEqual(
    parseBindingRecord(bindingRecord(binding, status)),
    parseBindingRecord(bindingRecord(binding)),
  );
});

test('a binding view reads back the origin, replicas, clusters and aggregated status', () => {
  assert.deepEqual(parseBindingView(bindingRecord(binding, status)), {
    name: 'web-deployment',
    resource: binding.resource,
    key: 'apps/Deployment/shop/web',
    origin: 'policy',
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'web' },
    replicas: 10,
    clusters: [
      { name: 'm1', replicas: 4 },
      { name: 'm2', replicas: 6 },
    ],
    affinityName: 'primary',
    aggregatedStatus: status.aggregatedStatus,
    fullyApplied: status.fullyApplied,
  });
});

test('a binding view reads followers too, and a record without status as having none', () => {
  const { policy: _policy, ...follower } = binding;
  const view = parseBindingView(
    bindingRecord({
      ...follower,
      origin: 'dependency',
      schedule: { type: 'NoFit', diagnosis: [], message: 'none' },
    }),
  );
  assert.equal(view?.origin, 'dependency');
  assert.equal(view?.policy, undefined);
  assert.deepEqual(view?.clusters, []);
  assert.deepEqual(view?.aggregatedStatus, []);
  assert.equal(view?.fullyApplied, undefined);
});

const evicting: Binding = {
  ...binding,
  evictionTasks: [
    {
      fromCluster: 'm3',
      purgeMode: 'Gracefully',
      replicas: 2,
      reason: 'TaintUntolerated',
      message: 'taint cluster.karmada.io/not-ready:NoExecute not tolerated',
      producer: 'TaintManager',
      gracePeriodSeconds: 120,
      creationTimestamp: '2026-12-01T15:00:00.000Z',
    },
    {
      fromCluster: 'm4',
      purgeMode: 'Never',
      reason: 'ApplicationFailure',
      producer: 'ApplicationFailover',
      suppressDeletion: true,
      preservedLabelState: { 'failover.example/replicas': '3' },
      clustersBeforeFailover: ['m1', 'm4'],
      creationTimestamp: '2026-12-01T14:00:00.000Z',
    },
  ],
  rescheduleTriggeredAt: '2026-12-01T13:00:00.000Z',
  lastScheduledTime: '2026-12-01T13:00:01.000Z',
};

test('eviction tasks are recorded as Karmada’s spec.gracefulEvictionTasks, fresh-schedule times as spec.rescheduleTriggeredAt and status.lastScheduledTime', () => {
  const doc = yaml.load(bindingRecord(evicting)) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.deepEqual(doc.spec.gracefulEvictionTasks, evicting.evictionTasks);
  assert.equal(doc.spec.rescheduleTriggeredAt, '2026-12-01T13:00:00.000Z');
  assert.equal(doc.status.lastScheduledTime, '2026-12-01T13:00:01.000Z');
  assert.ok(!('gracefulEvictionTasks' in (yaml.load(bindingRecord(binding)) as any).spec)); // eslint-disable-line @typescript-eslint/no-explicit-any
});

test('eviction tasks and fresh-schedule times read back as the previous binding holds them, so a restart continues them', () => {
  assert.deepEqual(parseBindingRecord(bindingRecord(evicting)), previousBindingOf(evicting));
  assert.deepEqual(parseBindingRecord(bindingRecord(evicting))?.evictionTasks, evicting.evictionTasks);
  assert.deepEqual(parseBindingView(bindingRecord(evicting))?.evictionTasks, evicting.evictionTasks);
});

test('a recorded task is read leniently: no fromCluster is no task, an unknown purgeMode keeps the copy (Gracefully)', () => {
  const text = bindingRecord(binding).replace(
    'spec:\n',
    'spec:\n  gracefulEvictionTasks:\n    - {purgeMode: Gracefully, reason: X}\n    - {fromCluster: m3, purgeMode: Graciously, replicas: -1}\n',
  );
  assert.deepEqual(parseBindingRecord(text)?.evictionTasks, [
    { fromCluster: 'm3', purgeMode: 'Gracefully', reason: '', producer: '', creationTimestamp: '' },
  ]);
});

const tainted: Binding = {
  ...binding,
  schedule: {
    type: 'Scheduled',
    clusters: [{ name: 'm1', replicas: 10 }],
    refused: [
      {
        cluster: 'm2',
        filter: 'TaintToleration',
        reason: 'taint dedicated=gpu:NoSchedule not tolerated',
        taint: { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
      },
    ],
  },
};

test("a schedule's refusals are recorded, read back by the view, and kept by the previous binding as the render remembers them", () => {
  const text = bindingRecord(tainted);
  assert.match(text, /refusedClusters:/);
  assert.deepEqual(
    parseBindingView(text)?.refused,
    tainted.schedule.type === 'Scheduled' ? tainted.schedule.refused : [],
  );
  assert.deepEqual(parseBindingRecord(text), previousBindingOf(tainted));
  assert.equal(parseBindingView(text)?.scheduleFailed, undefined);
});

test('a filter failure records every cluster refused and the failed Scheduled condition', () => {
  const view = parseBindingView(
    bindingRecord({
      ...binding,
      schedule: {
        type: 'NoFit',
        message: '0/2 clusters are available',
        diagnosis: [
          { cluster: 'm1', filter: 'ClusterAffinity', reason: 'not in clusterAffinity.clusterNames' },
          { cluster: 'm2', filter: 'APIEnablement', reason: 'API apps/v1 Deployment not enabled' },
        ],
      },
    }),
  );
  assert.deepEqual(view?.scheduleFailed, { reason: 'NoClusterFit', message: '0/2 clusters are available' });
  assert.deepEqual(
    view?.refused?.map((d) => [d.cluster, d.filter]),
    [
      ['m1', 'ClusterAffinity'],
      ['m2', 'APIEnablement'],
    ],
  );
});

test('a recorded refusal this version does not know is left out, not guessed', () => {
  const text = bindingRecord(tainted).replace('filter: TaintToleration', 'filter: GpuFit');
  assert.equal(parseBindingView(text)?.refused, undefined);
});
