// The explanation of a template where it is placed, one case per reason: the cluster, the
// agent's apply and health report, and a rollout that holds it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RolloutState } from '../../../src/core/model/rollout.js';
import { explainTemplates } from '../../../src/core/status/explain-template.js';
import type { ClusterExplanation } from '../../../src/core/status/explanation.js';
import type { FleetStatusData } from '../../../src/core/status/fleet-status-data.js';
import type { AgentReport } from '../../../src/core/status/status-branch.js';
import {
  aFleetStatus,
  aReport,
  aRollout,
  aWebBinding,
  aWebRecord,
  head2,
  source1,
} from './fleet-status-builders.js';

interface Given {
  /** member2's report (absent: none). */
  report?: AgentReport;
  data?: Partial<FleetStatusData>;
  rollout?: RolloutState;
}

/** Returns the explanation of shop/web on member2, where it is placed (with member1, Healthy). */
function member2Of(given: Given): ClusterExplanation {
  const reports = [aReport('member1', [aWebRecord()]), ...(given.report ? [given.report] : [])];
  const data = aFleetStatus([aWebBinding({}, ['member1', 'member2'])], reports, {
    ...(given.rollout
      ? { rollouts: [{ path: '.gitfleet/rollouts/shop/front.yaml', rollout: given.rollout }] }
      : {}),
    ...given.data,
  });
  return explainTemplates(data)[0]!.clusters.find((c) => c.cluster === 'member2')!;
}

const healthy = aReport('member2', [aWebRecord()]);

const cases: { name: string; given: Given; want: Pick<ClusterExplanation, 'reason' | 'message'> }[] = [
  {
    name: 'Applied at the head and Healthy is Healthy',
    given: { report: healthy },
    want: { reason: 'Healthy', message: 'member2: applied and Healthy' },
  },
  {
    name: "Progressing carries the health check's reason",
    given: {
      report: aReport('member2', [
        aWebRecord({
          health: 'Progressing',
          healthMessage: 'Waiting for rollout: 1 of 2 updated replicas are available',
        }),
      ]),
    },
    want: {
      reason: 'Progressing',
      message: 'member2: Progressing: Waiting for rollout: 1 of 2 updated replicas are available',
    },
  },
  {
    name: "Degraded carries the health check's reason",
    given: {
      report: aReport('member2', [
        aWebRecord({ health: 'Degraded', healthMessage: 'Deployment "web" exceeded its progress deadline' }),
      ]),
    },
    want: {
      reason: 'Degraded',
      message: 'member2: Degraded: Deployment "web" exceeded its progress deadline',
    },
  },
  {
    name: 'Unknown health says the object is applied',
    given: { report: aReport('member2', [aWebRecord({ health: 'Unknown' })]) },
    want: { reason: 'HealthUnknown', message: 'member2: applied, health Unknown' },
  },
  {
    name: "A failed apply carries the agent's error",
    given: {
      report: aReport('member2', [
        aWebRecord({
          applied: false,
          health: 'Unknown',
          message: 'admission webhook "policy" denied the request',
        }),
      ]),
    },
    want: {
      reason: 'ApplyFailed',
      message: 'member2: apply failed: admission webhook "policy" denied the request',
    },
  },
  {
    name: 'An agent behind the branch head is waiting for its next apply',
    given: {
      report: aReport('member2', [aWebRecord()]),
      data: {
        renderedHeads: new Map([
          ['member1', 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1'],
          ['member2', head2],
        ]),
      },
    },
    want: {
      reason: 'NotYetApplied',
      message: 'member2: its agent applied a1a1a1a, the hub rendered b2b2b2b: waiting for its next apply',
    },
  },
  {
    name: 'A cluster whose agent never reported asks whether it runs',
    given: {},
    want: { reason: 'NotReported', message: 'member2: its agent has not reported yet: is it running?' },
  },
  {
    name: 'An agent that does not report the object says so',
    given: { report: aReport('member2', []) },
    want: { reason: 'NotReported', message: 'member2: its agent does not report Deployment/shop/web' },
  },
  {
    name: "A cluster the hub's monitor judged says its report may be stale",
    given: { report: healthy, data: { judged: new Map([['member2', 'Unknown']]) } },
    want: {
      reason: 'ClusterNotReady',
      message:
        "member2 is not Ready (Unknown: judged Unknown by the hub's cluster monitor: its agent stopped renewing its heartbeat): what its agent reported may be stale",
    },
  },
  {
    name: 'A cluster its agent reports not Ready says why',
    given: {
      report: aReport('member2', [aWebRecord()], {
        clusterStatus: {
          conditions: [
            { type: 'Ready', status: 'False', reason: 'ClusterNotReachable', message: 'no answer' },
          ],
        },
      }),
    },
    want: {
      reason: 'ClusterNotReady',
      message:
        'member2 is not Ready (False: ClusterNotReachable: no answer): what its agent reported may be stale',
    },
  },
  {
    name: 'A cluster held by a later step waits for the earlier one',
    given: { report: healthy, rollout: aRollout({ message: 'step 1/2: member1: Progressing' }) },
    want: {
      reason: 'HeldByRollout',
      message:
        'member2 keeps the version of c3c3c3c until step 2/2 of rollout shop/front brings d4d4d4d: waiting for step 1/2 (step 1/2: member1: Progressing)',
    },
  },
  {
    name: 'A cluster held while the step before soaks says since when it is Healthy',
    given: { report: healthy, rollout: aRollout({ healthySince: '2026-12-01T15:01:00.000Z' }) },
    want: {
      reason: 'HeldByRollout',
      message:
        'member2 keeps the version of c3c3c3c until step 2/2 of rollout shop/front brings d4d4d4d: waiting for the soak of step 1/2 (Healthy since 2026-12-01T15:01:00.000Z)',
    },
  },
  {
    name: 'A cluster held for an approval names the trailer to push',
    given: { report: healthy, rollout: aRollout({ phase: 'WaitingApproval', step: 2 }) },
    want: {
      reason: 'HeldByRollout',
      message:
        "member2 keeps the version of c3c3c3c until step 2/2 of rollout shop/front brings d4d4d4d: step 2/2 waits for approval (a source commit with the trailer 'Gitfleet-Approve: shop/front step 2')",
    },
  },
  {
    name: 'A cluster held for an approval names the approvals that did not count',
    given: {
      report: healthy,
      rollout: aRollout({
        phase: 'WaitingApproval',
        step: 2,
        message:
          "step 2/2 waits for approval: push a source commit with the trailer 'Gitfleet-Approve: shop/front step 2', signed by one of the strategy's approvers; not counted: commit 1a2b3c4d5e6f (unsigned): not signed by one of the strategy's approvers: commit 1a2b3c4d5e6f: unsigned",
      }),
    },
    want: {
      reason: 'HeldByRollout',
      message:
        "member2 keeps the version of c3c3c3c until step 2/2 of rollout shop/front brings d4d4d4d: step 2/2 waits for approval (a source commit with the trailer 'Gitfleet-Approve: shop/front step 2'); not counted: commit 1a2b3c4d5e6f (unsigned): not signed by one of the strategy's approvers: commit 1a2b3c4d5e6f: unsigned",
    },
  },
  {
    name: 'A cluster held by a halted rollout says what to do',
    given: {
      report: healthy,
      rollout: aRollout({
        phase: 'Halted',
        message: 'step 1/2: member1: Deployment/shop/web Degraded; halted',
      }),
    },
    want: {
      reason: 'RolloutHalted',
      message:
        'member2 keeps the version of c3c3c3c: rollout shop/front stopped at step 1/2: step 1/2: member1: Deployment/shop/web Degraded; halted; push a fix or a revert to start again',
    },
  },
  {
    name: 'A cluster a rollout rolled back says so',
    given: {
      report: healthy,
      rollout: aRollout({
        phase: 'RolledBack',
        message: 'member2 Degraded; rolled back',
        clusters: [{ name: 'member2', step: 1, state: 'RolledBack', commit: source1 }],
      }),
    },
    want: {
      reason: 'RolledBack',
      message:
        'member2 got its last good version back from rollout shop/front: member2 Degraded; rolled back',
    },
  },
  {
    name: 'A Degraded object on a held cluster is Degraded first',
    given: {
      report: aReport('member2', [aWebRecord({ health: 'Degraded', healthMessage: 'crash loop' })]),
      rollout: aRollout(),
    },
    want: { reason: 'Degraded', message: 'member2: Degraded: crash loop' },
  },
  {
    name: 'A complete rollout holds nothing',
    given: { report: healthy, rollout: aRollout({ phase: 'Complete' }) },
    want: { reason: 'Healthy', message: 'member2: applied and Healthy' },
  },
  {
    name: 'A rollout that does not select the object holds nothing of it',
    given: { report: healthy, rollout: aRollout({ objects: ['shop/ConfigMap/settings.yaml'] }) },
    want: { reason: 'Healthy', message: 'member2: applied and Healthy' },
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const got = member2Of(given);
    assert.deepEqual({ reason: got.reason, message: got.message }, want);
    assert.equal(got.placed, true);
  });
}

test('A held cluster is structured data too: strategy, steps, what it waits for, what it runs', () => {
  const got = member2Of({ report: healthy, rollout: aRollout({ healthySince: '2026-12-01T15:01:00.000Z' }) });
  assert.deepEqual(got.rollout, {
    strategy: 'shop/front',
    phase: 'Progressing',
    step: 2,
    current: 1,
    steps: 2,
    revision: aRollout().revision,
    runs: source1,
    waitingFor: 'Soak',
  });
});

test("A template's reason is its worst cluster's, with how many more are not Healthy", () => {
  const degraded = aReport('member2', [aWebRecord({ health: 'Degraded', healthMessage: 'crash loop' })]);
  const progressing = aReport('member3', [aWebRecord({ health: 'Progressing' })]);
  const data = aFleetStatus(
    [aWebBinding({}, ['member1', 'member2', 'member3'])],
    [aReport('member1', [aWebRecord()]), degraded, progressing],
  );
  const [explained] = explainTemplates(data);
  assert.equal(explained!.reason, 'Degraded');
  assert.equal(explained!.message, 'member2: Degraded: crash loop (and 1 more)');
});

test('A template Healthy everywhere it is placed has no message', () => {
  const [explained] = explainTemplates(aFleetStatus([aWebBinding()], [aReport('member1', [aWebRecord()])]));
  assert.deepEqual([explained!.reason, explained!.message], ['Healthy', '']);
});

test('A cluster the hub aggregated carries the agent error the hub recorded', () => {
  const binding = aWebBinding({
    aggregatedStatus: [
      { clusterName: 'member1', applied: false, health: 'Unknown', appliedMessage: 'quota exceeded' },
    ],
  });
  const data = aFleetStatus([binding], [aReport('member1', [])], { aggregatedByHub: new Set(['member1']) });
  const got = explainTemplates(data)[0]!.clusters[0]!;
  assert.deepEqual([got.reason, got.message], ['ApplyFailed', 'member1: apply failed: quota exceeded']);
});
