import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fitDescription,
  planDeployStatus,
  supersededStatus,
  type DeployStatus,
} from '../../../src/core/notify/deploy-status.js';
import { deployStatusInputOf } from '../../../src/core/notify/deploy-status-input.js';
import type { FleetStatusData } from '../../../src/core/status/fleet-status-data.js';
import {
  aFleetStatus,
  aReport,
  aRollout,
  aWebBinding,
  aWebRecord,
  head1,
  head2,
  source2,
} from '../status/fleet-status-builders.js';

const now = new Date('2026-12-01T16:00:00.000Z');
const web = aWebBinding({}, ['member1', 'member2']);
const healthy = (cluster: string) => aReport(cluster, [aWebRecord()]);
const applyFailed = (cluster: string) =>
  aReport(cluster, [aWebRecord({ applied: false, message: 'field is immutable' })], {
    appliedCommit: head2,
    conditions: [
      { type: 'Applied', status: 'False', reason: 'ApplyFailed', message: '1 of 1 objects not applied' },
    ],
  });

function statusOf(data: FleetStatusData): DeployStatus | undefined {
  const input = deployStatusInputOf(data, now);
  return input && planDeployStatus(input);
}

const cases: { name: string; given: FleetStatusData; want: DeployStatus | undefined }[] = [
  {
    name: 'every placed cluster runs the rendered head with every object Healthy: success',
    given: aFleetStatus([web], [healthy('member1'), healthy('member2')], { sourceCommit: source2 }),
    want: { state: 'success', description: 'healthy on 2/2 clusters' },
  },
  {
    name: 'one cluster has not reported yet: pending, counted as progressing',
    given: aFleetStatus([web], [healthy('member1')], { sourceCommit: source2 }),
    want: { state: 'pending', description: 'healthy on 1/2 clusters, 1 progressing' },
  },
  {
    name: 'a cluster still at an older cluster-branch commit is progressing',
    given: aFleetStatus(
      [web],
      [healthy('member1'), aReport('member2', [aWebRecord()], { appliedCommit: head2 })],
      {
        sourceCommit: source2,
      },
    ),
    want: { state: 'pending', description: 'healthy on 1/2 clusters, 1 progressing' },
  },
  {
    name: 'a cluster on the head with a Progressing object is progressing, one with a Degraded object degraded',
    given: aFleetStatus(
      [web],
      [
        aReport('member1', [aWebRecord({ health: 'Progressing' })]),
        aReport('member2', [aWebRecord({ health: 'Degraded' })]),
      ],
      { sourceCommit: source2 },
    ),
    want: { state: 'pending', description: 'healthy on 0/2 clusters, 1 progressing, 1 degraded' },
  },
  {
    name: "an apply failure reported on the rendered head is a failure naming the cluster and the agent's words",
    given: aFleetStatus([web], [healthy('member1'), applyFailed('member2')], {
      sourceCommit: source2,
      reportedOn: new Map([['member2', head1]]),
    }),
    want: { state: 'failure', description: 'apply failed on member2: 1 of 1 objects not applied' },
  },
  {
    name: 'an apply failure reported on an older commit is not about this one: still progressing',
    given: aFleetStatus([web], [healthy('member1'), applyFailed('member2')], {
      sourceCommit: source2,
      reportedOn: new Map([['member2', head2]]),
    }),
    want: { state: 'pending', description: 'healthy on 1/2 clusters, 1 progressing' },
  },
  {
    name: "a render the hub's guard refused never reaches its cluster: failure",
    given: aFleetStatus([web], [healthy('member1'), healthy('member2')], {
      sourceCommit: source2,
      hubRefusals: [{ cluster: 'member2', message: 'would delete 12 of 20 objects' }],
    }),
    want: {
      state: 'failure',
      description:
        "apply failed on member2: render refused by the hub's guard: would delete 12 of 20 objects",
    },
  },
  {
    name: 'a cluster an active rollout holds is counted as held by it, whatever it runs',
    given: aFleetStatus([web], [healthy('member1'), healthy('member2')], {
      sourceCommit: source2,
      rollouts: [{ path: '.gitfleet/rollouts/shop/front.yaml', rollout: aRollout() }],
    }),
    want: {
      state: 'pending',
      description: 'healthy on 1/2 clusters, 1 held by rollout shop/front (step 1/2)',
    },
  },
  {
    name: 'a halted rollout is a failure with its step and message',
    given: aFleetStatus([web], [healthy('member1'), healthy('member2')], {
      sourceCommit: source2,
      rollouts: [
        {
          path: '.gitfleet/rollouts/shop/front.yaml',
          rollout: aRollout({ phase: 'Halted', message: 'member1: Deployment/shop/web Degraded' }),
        },
      ],
    }),
    want: {
      state: 'failure',
      description: 'rollout shop/front halted at step 1/2: member1: Deployment/shop/web Degraded',
    },
  },
  {
    name: 'a commit that places nothing anywhere is done at once',
    given: aFleetStatus([aWebBinding({}, [])], [healthy('member1')], { sourceCommit: source2 }),
    want: { state: 'success', description: 'placed on no cluster' },
  },
  {
    name: 'a bindings head that names no source commit gives nothing to post',
    given: aFleetStatus([web], [healthy('member1')]),
    want: undefined,
  },
];

for (const c of cases) test(c.name, () => assert.deepEqual(statusOf(c.given), c.want));

test('a superseded commit gets canceled, naming the newer commit and where it stood', () => {
  assert.deepEqual(supersededStatus(source2, { state: 'pending', description: 'healthy on 1/2 clusters' }), {
    state: 'canceled',
    description: 'superseded by d4d4d4d before it was final (healthy on 1/2 clusters)',
  });
});

test('a description is one line of at most 140 characters', () => {
  const long = fitDescription(`apply failed on member2: ${'x'.repeat(200)}\nsecond line`);
  assert.equal([...long].length, 140);
  assert.ok(long.endsWith('…'));
  assert.equal(fitDescription('a\nb\u0007c'), 'a b c');
  const many = Array.from({ length: 40 }, (_, i) => ({
    name: `cluster-with-a-long-name-${i}`,
    state: { type: 'Failed' as const, why: 'x' },
  }));
  const status = planDeployStatus({ sourceCommit: source2, clusters: many, stopped: [] });
  assert.equal(status.state, 'failure');
  assert.ok([...status.description].length <= 140, status.description);
  assert.match(status.description, /^apply failed on 40\/40 clusters: cluster-with-a-long-name-0, /);
});
