// What a failed schedule leaves on the binding and in its record, as Karmada's scheduler does:
// pkg/scheduler/scheduler.go scheduleResourceBindingWithClusterAffinity (a FitError patches the
// binding's clusters to nothing; any other error returns before the patch, so the clusters stay),
// scheduleResourceBindingWithClusterAffinities (the first term's error decides) and
// pkg/scheduler/helper.go getConditionByError (the Scheduled condition's status and reason).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import type { Claim } from '../../../src/core/detect/detect-claims.js';
import type { PreviousBinding } from '../../../src/core/model/binding.js';
import type { Cluster, ClusterStatus } from '../../../src/core/model/cluster.js';
import type { Template } from '../../../src/core/model/fleet.js';
import type { Placement } from '../../../src/core/model/propagation-policy.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';
import { bindClaim } from '../../../src/core/schedule/bind-claims.js';
import { bindingRecord } from '../../../src/core/publish/binding-record.js';
import { aCluster, aDeployment, aPlacement, aPropagationPolicy } from '../builders.js';
import { capacity } from './schedule-fixtures.js';

const ref: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' };
const deployment = aDeployment('web', { replicas: 20 });
(
  deployment.spec as { template: { spec: { containers: Record<string, unknown>[] } } }
).template.spec.containers[0]!['resources'] = { requests: { cpu: '1' } };
const template: Template = {
  ref,
  key: refKey(ref),
  object: deployment,
  source: { file: 'web.yaml', index: 0 },
};

const clusters: Cluster[] = ['member1', 'member2'].map((n) => aCluster(n, { labels: { env: 'prod' } }));
const prod = { labelSelector: { matchLabels: { env: 'prod' } } };
const test_ = { labelSelector: { matchLabels: { env: 'test' } } };
const dynamic: Placement['replicaScheduling'] = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Weighted',
  weightPreference: { dynamicWeight: 'AvailableReplicas' },
};
const previous: PreviousBinding = {
  key: template.key,
  policy: { kind: 'PropagationPolicy', namespace: 'default', name: 'web' },
  clusters: [{ name: 'member1', replicas: 6 }],
};

function bind(placement: Placement, status: Record<string, ClusterStatus> = {}, prev = previous) {
  const claim: Claim = { template, policy: aPropagationPolicy('web', [], { placement }), how: 'sticky' };
  const context = { clusters, clusterStatus: new Map(Object.entries(status)) };
  const bound = bindClaim(claim, context, prev);
  const record = yaml.load(bindingRecord(bound.binding)) as {
    spec: { clusters: unknown[] };
    status: { conditions: Record<string, string>[] };
  };
  const scheduled = record.status.conditions.find((c) => c.type === 'Scheduled')!;
  return { bound, record, scheduled };
}

test('When no cluster passes the filters any more, the binding loses its clusters (FitError).', () => {
  const { bound, record, scheduled } = bind(aPlacement({ clusterAffinity: test_ }));
  assert.equal(bound.binding.schedule.type, 'NoFit');
  assert.deepEqual(record.spec.clusters, []);
  assert.equal(scheduled.status, 'False');
  assert.equal(scheduled.reason, 'NoClusterFit');
  assert.match(scheduled.message!, /^0\/2 clusters are available/);
  assert.equal(bound.diagnostic?.code, 'NoClusterFit');
  assert.doesNotMatch(bound.diagnostic!.message, /kept on its previous clusters/);
});

test('When the clusters cannot take the replicas, the previous clusters stay and Scheduled is False, Unschedulable.', () => {
  const room = capacity({ cpu: '2', memory: '64Gi' });
  const { bound, record, scheduled } = bind(
    aPlacement({ clusterAffinity: prod, replicaScheduling: dynamic }),
    {
      member1: room,
      member2: room,
    },
  );
  assert.deepEqual(record.spec.clusters, [{ name: 'member1', replicas: 6 }]);
  assert.equal(scheduled.status, 'False');
  assert.equal(scheduled.reason, 'Unschedulable');
  assert.match(bound.diagnostic!.message, /kept on its previous clusters/);
});

test('When the spread constraints cannot be met, the previous clusters stay and Scheduled is False, SchedulerError.', () => {
  const placement = aPlacement({
    clusterAffinity: prod,
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: 3, maxGroups: 3 }],
  });
  const { record, scheduled } = bind(placement);
  assert.deepEqual(record.spec.clusters, [{ name: 'member1', replicas: 6 }]);
  assert.equal(scheduled.status, 'False');
  assert.equal(scheduled.reason, 'SchedulerError');
});

test('With clusterAffinities, a filter failure of the first term tried clears the clusters.', () => {
  const placement = aPlacement({
    clusterAffinities: [
      { affinityName: 'primary', ...test_ },
      { affinityName: 'backup', clusterNames: ['member9'] },
    ],
  });
  const { record, scheduled } = bind(placement, {}, { ...previous, affinityName: 'primary' });
  assert.deepEqual(record.spec.clusters, []);
  assert.equal(scheduled.reason, 'NoClusterFit');
});

test('With clusterAffinities, a replica failure of the first term tried keeps the clusters and the observed term.', () => {
  const room = capacity({ cpu: '2', memory: '64Gi' });
  const placement = aPlacement({
    replicaScheduling: dynamic,
    clusterAffinities: [
      { affinityName: 'primary', ...prod },
      { affinityName: 'backup', ...test_ },
    ],
  });
  const { record, scheduled } = bind(
    placement,
    { member1: room, member2: room },
    { ...previous, affinityName: 'primary' },
  );
  assert.deepEqual(record.spec.clusters, [{ name: 'member1', replicas: 6 }]);
  assert.equal((record.status as Record<string, unknown>)['schedulerObservingAffinityName'], 'primary');
  assert.equal(scheduled.reason, 'Unschedulable');
});

test('A first schedule that fails has no previous clusters to keep.', () => {
  const room = capacity({ cpu: '2', memory: '64Gi' });
  const claim: Claim = {
    template,
    policy: aPropagationPolicy('web', [], { placement: aPlacement({ replicaScheduling: dynamic }) }),
    how: 'matched',
  };
  const bound = bindClaim(claim, { clusters, clusterStatus: new Map([['member1', room]]) }, undefined);
  const record = yaml.load(bindingRecord(bound.binding)) as { spec: { clusters: unknown[] }; status: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.deepEqual(record.spec.clusters, []);
  assert.equal(record.status.conditions[0].reason, 'Unschedulable');
});

test("A successful schedule records Scheduled=True, Success, with Karmada's message.", () => {
  const { scheduled } = bind(aPlacement({ clusterAffinity: prod }));
  assert.deepEqual(scheduled, {
    type: 'Scheduled',
    status: 'True',
    reason: 'Success',
    message: 'Binding has been scheduled successfully.',
  });
});
