// The progress deadline judged as of after the agent's last apply of the Deployment's spec
// (issue #27 point 6): a ProgressDeadlineExceeded the controller counted from a
// Progressing condition older than that apply is not the applied spec's failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { healthOf, type HealthStatus } from '../../../src/core/health/health-of.js';
import type { HealthContext } from '../../../src/core/health/health.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';

const appliedAt = Date.parse('2026-12-04T10:00:00Z');

/** A Deployment whose controller saw generation 7 and says it exceeded its deadline at `timedOutAt`. */
function aTimedOutDeployment(opts: {
  timedOutAt: string;
  deadline?: number;
  generation?: number;
}): KubeObject {
  const generation = opts.generation ?? 7;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', generation },
    spec: { replicas: 1, ...(opts.deadline !== undefined ? { progressDeadlineSeconds: opts.deadline } : {}) },
    status: {
      observedGeneration: generation,
      replicas: 2,
      updatedReplicas: 1,
      availableReplicas: 1,
      conditions: [
        { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
        {
          type: 'Progressing',
          status: 'False',
          reason: 'ProgressDeadlineExceeded',
          message: 'ReplicaSet "web-5d4f" has timed out progressing.',
          lastUpdateTime: opts.timedOutAt,
          lastTransitionTime: opts.timedOutAt,
        },
      ],
    },
  };
}

const cases: { name: string; given: KubeObject; context: HealthContext; want: HealthStatus }[] = [
  {
    name: 'a deadline exceeded 3 s after the apply of a spec with a 10 s deadline was counted from before the apply: Progressing',
    given: aTimedOutDeployment({ timedOutAt: '2026-12-04T10:00:03Z', deadline: 10 }),
    context: { specApplied: { generation: 7, atMs: appliedAt } },
    want: 'Progressing',
  },
  {
    name: 'a deadline exceeded 12 s after the apply of a spec with a 10 s deadline is the applied spec failing: Degraded',
    given: aTimedOutDeployment({ timedOutAt: '2026-12-04T10:00:12Z', deadline: 10 }),
    context: { specApplied: { generation: 7, atMs: appliedAt } },
    want: 'Degraded',
  },
  {
    name: 'a deadline exceeded exactly the deadline after the apply (second precision) is Degraded',
    given: aTimedOutDeployment({ timedOutAt: '2026-12-04T10:00:10Z', deadline: 10 }),
    context: { specApplied: { generation: 7, atMs: appliedAt + 900 } },
    want: 'Degraded',
  },
  {
    name: 'without a deadline in the spec the API server default of 600 s is the one compared',
    given: aTimedOutDeployment({ timedOutAt: '2026-12-04T10:05:00Z' }),
    context: { specApplied: { generation: 7, atMs: appliedAt } },
    want: 'Progressing',
  },
  {
    name: 'a deadline exceeded before the apply (the timed-out condition is older than it) is Progressing',
    given: aTimedOutDeployment({ timedOutAt: '2026-12-04T09:50:00Z', deadline: 10 }),
    context: { specApplied: { generation: 7, atMs: appliedAt } },
    want: 'Progressing',
  },
  {
    name: 'an apply remembered for another generation says nothing of this one: Degraded',
    given: aTimedOutDeployment({ timedOutAt: '2026-12-04T10:00:03Z', deadline: 10, generation: 8 }),
    context: { specApplied: { generation: 7, atMs: appliedAt } },
    want: 'Degraded',
  },
  {
    name: 'with no apply remembered (another writer, or a restarted agent) the condition is taken as it is: Degraded',
    given: aTimedOutDeployment({ timedOutAt: '2026-12-04T10:00:03Z', deadline: 10 }),
    context: {},
    want: 'Degraded',
  },
  {
    name: 'a timed-out condition without a readable lastUpdateTime is taken as it is: Degraded',
    given: aTimedOutDeployment({ timedOutAt: 'not a time', deadline: 10 }),
    context: { specApplied: { generation: 7, atMs: appliedAt } },
    want: 'Degraded',
  },
];

for (const { name, given, context, want } of cases) {
  test(name, () => {
    const got = healthOf(given, undefined, context);
    assert.equal(got.status, want, `message: ${got.message ?? '(none)'}`);
    assert.ok(got.message, 'a non-healthy verdict carries a message');
  });
}

test('the Progressing verdict of an inherited deadline says why it is not Degraded', () => {
  const got = healthOf(aTimedOutDeployment({ timedOutAt: '2026-12-04T10:00:03Z', deadline: 10 }), undefined, {
    specApplied: { generation: 7, atMs: appliedAt },
  });
  assert.match(got.message ?? '', /3s after generation 7 was applied, sooner than its 10s deadline/);
  assert.match(got.message ?? '', /timed out progressing/);
});
