// The events of a bindings commit (core/notify/bindings-commit-events.ts): decisions from its
// trailers, recorded state only where it differs from the parent's, rollouts from the records,
// and ids that are a function of the commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bindingsCommitEvents,
  type BindingsCommitFacts,
} from '../../../src/core/notify/bindings-commit-events.js';
import type { RolloutState } from '../../../src/core/model/rollout.js';

const source = 'a'.repeat(40);
const commitOf = (n: number) => String(n).repeat(40).slice(0, 40);

function facts(n: number, trailers: string[], rollouts: RolloutState[] = []): BindingsCommitFacts {
  return {
    commit: commitOf(n),
    message: `render ${source.slice(0, 7)}: x\n\n${[`Gitfleet-Source-Commit: ${source}`, ...trailers].join('\n')}\n`,
    time: '2026-12-05T10:00:00.000Z',
    rollouts: new Map(rollouts.map((r) => [`${r.strategy.namespace}/${r.strategy.name}`, r])),
  };
}

function rollout(fields: Partial<RolloutState>): RolloutState {
  return {
    strategy: { kind: 'RolloutStrategy', namespace: 'shop', name: 'web' },
    revision: 'b'.repeat(40),
    source,
    phase: 'Progressing',
    step: 1,
    steps: 2,
    stepStartedAt: '2026-12-05T10:00:00.000Z',
    digests: {},
    clusters: [],
    ...fields,
  };
}

const cases: {
  name: string;
  before: BindingsCommitFacts | null;
  now: BindingsCommitFacts;
  want: [string, string | undefined, RegExp][];
}[] = [
  {
    name: 'A taint added and one removed are ClusterTainted and ClusterUntainted of that cluster.',
    before: facts(1, []),
    now: facts(2, [
      'Gitfleet-Taint: member2 +cluster.karmada.io/unreachable:NoExecute: Ready is Unknown',
      'Gitfleet-Taint: member1 -cluster.karmada.io/not-ready:NoSchedule: Ready is True',
    ]),
    want: [
      [
        'ClusterTainted',
        'member2',
        /^member2 tainted cluster\.karmada\.io\/unreachable:NoExecute: Ready is Unknown$/,
      ],
      ['ClusterUntainted', 'member1', /^member1 untainted cluster\.karmada\.io\/not-ready:NoSchedule/],
    ],
  },
  {
    name: 'A refusal the parent recorded already is no new event; a new one is.',
    before: facts(1, ['Gitfleet-Deletion-Refused: member1: would delete 12 of 20 objects']),
    now: facts(2, [
      'Gitfleet-Deletion-Refused: member1: would delete 12 of 20 objects',
      'Gitfleet-Deletion-Refused: member2: would delete 3 of 3 objects',
    ]),
    want: [['DeletionRefused', 'member2', /^member2: would delete 3 of 3 objects$/]],
  },
  {
    name: 'A cluster the monitor judges Unknown is NotReady; one it judges no more is Ready again.',
    before: facts(1, ['Gitfleet-Cluster-Judged: member1=Unknown']),
    now: facts(2, ['Gitfleet-Cluster-Judged: member2=Unknown']),
    want: [
      ['ClusterNotReady', 'member2', /^member2: Ready is Unknown/],
      ['ClusterReady', 'member1', /^member1: its agent reports again$/],
    ],
  },
  {
    name: 'An eviction names the object, its namespace and the cluster it left.',
    before: facts(1, []),
    now: facts(2, [
      'Gitfleet-Eviction: shop/Deployment.apps/web from member2: TaintUntolerated (TaintManager, purgeMode Gracefully): x',
    ]),
    want: [['ObjectEvicted', 'member2', /^shop\/Deployment\.apps\/web from member2: TaintUntolerated/]],
  },
  {
    name: 'A source head refused is told once, while the refusal stays the same.',
    before: facts(1, ['Gitfleet-Source-Refused: c0ffee: unsigned']),
    now: facts(2, ['Gitfleet-Source-Refused: c0ffee: unsigned']),
    want: [],
  },
  {
    name: 'A rollout record that appears is RolloutStarted; one that halts names the cluster and the reason.',
    before: facts(1, []),
    now: facts(
      2,
      [],
      [
        rollout({
          phase: 'Halted',
          message: 'step 1/2: gcp-eu-prod: shop/Deployment.apps/web Degraded; halted',
          clusters: [
            {
              name: 'gcp-eu-prod',
              step: 1,
              state: 'Moved',
              message: 'gcp-eu-prod: shop/Deployment.apps/web Degraded',
            },
          ],
        }),
      ],
    ),
    want: [
      ['RolloutStarted', undefined, /^shop\/web: rollout of b{12} started \(2 steps\)$/],
      [
        'RolloutHalted',
        'gcp-eu-prod',
        /^shop\/web: step 1\/2: gcp-eu-prod: shop\/Deployment\.apps\/web Degraded; halted$/,
      ],
    ],
  },
  {
    name: 'A step passed and a complete rollout are told as such; a record that did not change is not.',
    before: facts(1, [], [rollout({ step: 1 })]),
    now: facts(2, [], [rollout({ step: 2, phase: 'Complete' })]),
    want: [
      ['RolloutStepPassed', undefined, /step 1\/2 of b{12} passed/],
      ['RolloutStepPassed', undefined, /step 2\/2 of b{12} passed/],
      ['RolloutComplete', undefined, /^shop\/web: complete$/],
    ],
  },
  {
    name: 'The same record twice gives nothing.',
    before: facts(1, [], [rollout({ phase: 'WaitingApproval', step: 2 })]),
    now: facts(2, [], [rollout({ phase: 'WaitingApproval', step: 2 })]),
    want: [],
  },
];

for (const c of cases)
  test(c.name, () => {
    const events = bindingsCommitEvents(c.now, c.before);
    assert.deepEqual(
      events.map((e) => e.event),
      c.want.map((w) => w[0]),
    );
    c.want.forEach(([, cluster, message], i) => {
      assert.equal(events[i]!.cluster, cluster);
      assert.match(events[i]!.message, message);
      assert.equal(events[i]!.id, `${c.now.commit}:${i}`);
      assert.equal(events[i]!.sourceCommit, source);
    });
  });

test('The same commit always gives the same events with the same ids.', () => {
  const now = facts(
    2,
    ['Gitfleet-Taint: member2 +x:NoSchedule: why'],
    [rollout({ phase: 'Halted', message: 'm' })],
  );
  assert.deepEqual(bindingsCommitEvents(now, facts(1, [])), bindingsCommitEvents(now, facts(1, [])));
});

test('An eviction trailer names the object by its branch path; the event names it Kind/namespace/name, with the namespace routes filter on.', () => {
  const events = bindingsCommitEvents(
    facts(2, [
      'Gitfleet-Eviction: shop/Deployment.apps/web from member2: TaintUntolerated (TaintManager, purgeMode Gracefully): x',
      'Gitfleet-Eviction: _cluster/Namespace/shop from member2: TaintUntolerated (TaintManager, purgeMode Gracefully): x',
    ]),
    facts(1, []),
  ).filter((e) => e.event === 'ObjectEvicted');
  assert.deepEqual(
    events.map((e) => [e.object, e.namespace]),
    [
      ['Deployment/shop/web', 'shop'],
      ['Namespace/shop', undefined],
    ],
  );
});
