import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScheduleResult } from '../../../src/core/model/binding.js';
import type { ObjectRef } from '../../../src/core/model/object-ref.js';
import { aggregateBindingStatus, type AggregateInput } from '../../../src/core/status/aggregate-status.js';
import type { BindingStatus } from '../../../src/core/publish/binding-status.js';
import type { AgentReport, ObjectStatusRecord } from '../../../src/core/status/status-branch.js';

const web: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
const c1 = 'c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1';
const c2 = 'c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2';

function scheduledOn(...clusters: string[]): ScheduleResult {
  return { type: 'Scheduled', clusters: clusters.map((name) => ({ name, replicas: 1 })) };
}

function record(over: Partial<ObjectStatusRecord> = {}): ObjectStatusRecord {
  return { ref: web, applied: true, health: 'Healthy', status: { replicas: 1, readyReplicas: 1 }, ...over };
}

function withoutStatus(r: ObjectStatusRecord): ObjectStatusRecord {
  const { status: _status, ...rest } = r;
  return rest;
}

function report(
  cluster: string,
  objects: ObjectStatusRecord[],
  appliedCommit: string | null = c1,
): AgentReport {
  return { cluster, appliedCommit, objects };
}

function reportsOf(...reports: AgentReport[]): Map<string, AgentReport> {
  return new Map(reports.map((r) => [r.cluster, r]));
}

const success = {
  status: 'True',
  reason: 'FullyAppliedSuccess',
  message: 'All works have been successfully applied',
} as const;
const failure = {
  status: 'False',
  reason: 'FullyAppliedFailed',
  message: 'Failed to apply all works, see status.aggregatedStatus for details',
} as const;

const cases: { name: string; given: AggregateInput; want: BindingStatus }[] = [
  {
    name: 'a template applied on every target cluster is fully applied, its statuses sorted by cluster',
    given: {
      binding: { resource: web, schedule: scheduledOn('m2', 'm1') },
      reports: reportsOf(report('m1', [record()]), report('m2', [record({ health: 'Progressing' })])),
    },
    want: {
      aggregatedStatus: [
        { clusterName: 'm1', applied: true, health: 'Healthy', status: { replicas: 1, readyReplicas: 1 } },
        {
          clusterName: 'm2',
          applied: true,
          health: 'Progressing',
          status: { replicas: 1, readyReplicas: 1 },
        },
      ],
      fullyApplied: success,
    },
  },
  {
    name: 'a failed apply on one cluster carries the agent message, health Unknown, and is not fully applied',
    given: {
      binding: { resource: web, schedule: scheduledOn('m1', 'm2') },
      reports: reportsOf(
        report('m1', [record()]),
        report('m2', [
          record({
            applied: false,
            message: 'Deployment/shop/web: apply failed: field is immutable',
            health: 'Degraded',
          }),
        ]),
      ),
    },
    want: {
      aggregatedStatus: [
        { clusterName: 'm1', applied: true, health: 'Healthy', status: { replicas: 1, readyReplicas: 1 } },
        {
          clusterName: 'm2',
          applied: false,
          appliedMessage: 'Deployment/shop/web: apply failed: field is immutable',
          health: 'Unknown',
        },
      ],
      fullyApplied: failure,
    },
  },
  {
    name: 'a target cluster without a report is not applied and says it has reported nothing',
    given: {
      binding: { resource: web, schedule: scheduledOn('m1', 'm3') },
      reports: reportsOf(report('m1', [record()])),
    },
    want: {
      aggregatedStatus: [
        { clusterName: 'm1', applied: true, health: 'Healthy', status: { replicas: 1, readyReplicas: 1 } },
        {
          clusterName: 'm3',
          applied: false,
          appliedMessage: 'cluster m3 has reported no status yet',
          health: 'Unknown',
        },
      ],
      fullyApplied: failure,
    },
  },
  {
    name: 'a report without the object says so',
    given: { binding: { resource: web, schedule: scheduledOn('m1') }, reports: reportsOf(report('m1', [])) },
    want: {
      aggregatedStatus: [
        {
          clusterName: 'm1',
          applied: false,
          appliedMessage: 'Deployment/shop/web is not in the status of cluster m1',
          health: 'Unknown',
        },
      ],
      fullyApplied: failure,
    },
  },
  {
    name: 'a cluster that applied an older commit than the rendered one has not applied it yet',
    given: {
      binding: { resource: web, schedule: scheduledOn('m1', 'm2') },
      reports: reportsOf(report('m1', [record()], c2), report('m2', [record()], c1)),
      renderedCommitOf: () => c2,
    },
    want: {
      aggregatedStatus: [
        { clusterName: 'm1', applied: true, health: 'Healthy', status: { replicas: 1, readyReplicas: 1 } },
        {
          clusterName: 'm2',
          applied: false,
          appliedMessage: 'not yet applied: cluster at c1c1c1c, rendered c2c2c2c',
          health: 'Unknown',
        },
      ],
      fullyApplied: failure,
    },
  },
  {
    name: 'a cluster that has applied nothing yet is at none',
    given: {
      binding: { resource: web, schedule: scheduledOn('m1') },
      reports: reportsOf(report('m1', [record()], null)),
      renderedCommitOf: (cluster) => (cluster === 'm1' ? c1 : undefined),
    },
    want: {
      aggregatedStatus: [
        {
          clusterName: 'm1',
          applied: false,
          appliedMessage: 'not yet applied: cluster at none, rendered c1c1c1c',
          health: 'Unknown',
        },
      ],
      fullyApplied: failure,
    },
  },
  {
    name: 'a binding that was not scheduled has no statuses and is not fully applied',
    given: {
      binding: {
        resource: web,
        schedule: { type: 'NoFit', diagnosis: [], message: '0/2 clusters are available' },
      },
      reports: reportsOf(report('m1', [record()])),
    },
    want: { aggregatedStatus: [], fullyApplied: failure },
  },
  {
    name: 'a cluster reporting the object under another version still counts: identity has no version',
    given: {
      binding: { resource: web, schedule: scheduledOn('m1') },
      reports: reportsOf(
        report('m1', [record({ ref: { ...web, apiVersion: 'apps/v1beta2' }, status: { replicas: 2 } })]),
      ),
    },
    want: {
      aggregatedStatus: [{ clusterName: 'm1', applied: true, health: 'Healthy', status: { replicas: 2 } }],
      fullyApplied: success,
    },
  },
  {
    name: 'non-target clusters that report the object are left out',
    given: {
      binding: { resource: web, schedule: scheduledOn('m1') },
      reports: reportsOf(report('m1', [withoutStatus(record())]), report('m9', [record()])),
    },
    want: {
      aggregatedStatus: [{ clusterName: 'm1', applied: true, health: 'Healthy' }],
      fullyApplied: success,
    },
  },
];

for (const { name, given, want } of cases) {
  test(name, () => assert.deepEqual(aggregateBindingStatus(given), want));
}
