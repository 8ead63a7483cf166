// The rollout trailers (core/rollout/rollout-trailers.ts): the cluster commit's line for each
// cluster state, the bindings commit's decision lines (one line each), and the approvals read
// from a source commit's message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RolloutState } from '../../../src/core/model/rollout.js';
import {
  approvalsOf,
  clusterRolloutLine,
  rolloutDecisionLines,
} from '../../../src/core/rollout/rollout-trailers.js';

const rev = 'a'.repeat(40);
const state: RolloutState = {
  strategy: { kind: 'RolloutStrategy', namespace: 'shop', name: 'web' },
  revision: rev,
  source: rev,
  phase: 'RolledBack',
  step: 1,
  steps: 2,
  stepStartedAt: '2026-12-01T15:00:00.000Z',
  message: 'step 1/2 failed on canary:\n  web Degraded; rolled back',
  digests: {},
  clusters: [],
};

const lines: { name: string; cluster: RolloutState['clusters'][number]; want: string }[] = [
  {
    name: 'moved',
    cluster: { name: 'canary', step: 1, state: 'Moved', commit: rev },
    want: `Gitfleet-Rollout: shop/web step 1/2 moved to ${rev}`,
  },
  {
    name: 'held, with what it runs and why',
    cluster: { name: 'eu', step: 2, state: 'Held', commit: 'b'.repeat(40), message: 'waiting for step 1/2' },
    want: `Gitfleet-Rollout: shop/web step 2/2 held at ${'b'.repeat(40)}: waiting for step 1/2`,
  },
  {
    name: 'held, nothing known',
    cluster: { name: 'eu', step: 2, state: 'Held' },
    want: 'Gitfleet-Rollout: shop/web step 2/2 held: waiting for an earlier step',
  },
  {
    name: 'rolled back, the rollout message on one line',
    cluster: { name: 'canary', step: 1, state: 'RolledBack', lastGood: 'c'.repeat(40) },
    want: `Gitfleet-Rollback: shop/web step 1/2 restores ${'c'.repeat(40)}: step 1/2 failed on canary: web Degraded; rolled back`,
  },
];

for (const row of lines) {
  test(`clusterRolloutLine: ${row.name}`, () => {
    assert.equal(clusterRolloutLine(state, row.cluster), row.want);
  });
}

test('clusterRolloutLine: a cluster-scoped strategy is named by its name alone', () => {
  const cluster = {
    ...state,
    strategy: { kind: 'ClusterRolloutStrategy' as const, namespace: '', name: 'all' },
  };
  assert.equal(
    clusterRolloutLine(cluster, { name: 'x', step: 1, state: 'Moved' }),
    `Gitfleet-Rollout: all step 1/2 moved to ${rev}`,
  );
});

test('rolloutDecisionLines: one trailer line per decision, in order, newlines folded', () => {
  assert.deepEqual(
    rolloutDecisionLines([
      { strategy: 'shop/web', type: 'Started', message: 'rollout started for x: step 1/2 first' },
      { strategy: 'all', type: 'Halted', message: 'step 1/1 failed on a:\n   b Degraded' },
    ]),
    [
      'Gitfleet-Rollout: shop/web: rollout started for x: step 1/2 first',
      'Gitfleet-Rollout: all: step 1/1 failed on a: b Degraded',
    ],
  );
});

const approvals: { name: string; message: string; want: string[] }[] = [
  { name: 'none', message: 'web 1.9.0\n', want: [] },
  {
    name: 'one trailer',
    message: 'approve\n\nGitfleet-Approve: shop/web step 2\n',
    want: ['shop/web step 2'],
  },
  {
    name: 'several, with other trailers',
    message:
      'approve\n\nSigned-off-by: a <a@b>\nGitfleet-Approve: shop/web step 2\nGitfleet-Approve: all step 3\n',
    want: ['shop/web step 2', 'all step 3'],
  },
  {
    name: 'spacing and a leading zero',
    message: 'x\n\n  Gitfleet-Approve:   shop/web   step   02  \n',
    want: ['shop/web step 2'],
  },
  {
    name: 'the key in another case',
    message: 'x\n\ngitfleet-approve: shop/web STEP 2\n',
    want: ['shop/web step 2'],
  },
  { name: 'no step number', message: 'x\n\nGitfleet-Approve: shop/web\n', want: [] },
  { name: 'a step that is no number', message: 'x\n\nGitfleet-Approve: shop/web step two\n', want: [] },
  { name: 'more after the step', message: 'x\n\nGitfleet-Approve: shop/web step 2 please\n', want: [] },
  { name: 'inside a sentence', message: 'we said Gitfleet-Approve: shop/web step 2 tomorrow\n', want: [] },
];

for (const row of approvals) {
  test(`approvalsOf: ${row.name}`, () => {
    assert.deepEqual(approvalsOf(row.message), row.want);
  });
}
