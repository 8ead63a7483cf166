import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RolloutState } from '../../../src/core/model/rollout.js';
import { rolloutRecordPath, rolloutRecordText } from '../../../src/core/rollout/rollout-record.js';
import { formatRolloutSection } from '../../../src/core/rollout/format-rollout-text.js';
import { formatStatusText } from '../../../src/core/status/format-status-text.js';
import { rolloutViewsOf } from '../../../src/core/rollout/rollout-view.js';
import type { StatusRow } from '../../../src/core/status/status-table.js';

const revision = '1a2b3c4d5e6f1a2b3c4d5e6f1a2b3c4d5e6f1a2b';
const previous = '0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f';

function aRollout(extra: Partial<RolloutState> = {}): RolloutState {
  return {
    strategy: { kind: 'RolloutStrategy', namespace: 'shop', name: 'web' },
    revision,
    source: revision,
    phase: 'Progressing',
    step: 1,
    steps: 2,
    stepStartedAt: '2026-12-01T15:00:00.000Z',
    message: 'waiting for member1 to stay Healthy for 300s',
    digests: { member1: 'd1', member2: 'd2' },
    clusters: [
      { name: 'member1', step: 1, state: 'Moved', commit: revision, lastGood: 'c0ffee' },
      { name: 'member2', step: 2, state: 'Held', commit: previous, message: 'waiting for step 1' },
    ],
    ...extra,
  };
}

const row: StatusRow = {
  template: 'Deployment/shop/web',
  cluster: 'member1',
  placed: true,
  appliedCommit: revision,
  applied: true,
  health: 'Healthy',
};

test('every record under .gitfleet/rollouts/ is read in path order, and only those files', () => {
  const cluster = aRollout({ strategy: { kind: 'ClusterRolloutStrategy', namespace: '', name: 'all' } });
  const files = new Map([
    [rolloutRecordPath({ namespace: 'shop', name: 'web' }), rolloutRecordText(aRollout())],
    [rolloutRecordPath({ namespace: '', name: 'all' }), rolloutRecordText(cluster)],
    ['shop/Deployment.apps/web.yaml', 'kind: ResourceBinding\n'],
    ['.gitfleet/failover/x.yaml', 'kind: Other\n'],
  ]);
  assert.deepEqual(rolloutViewsOf(files), [
    { path: '.gitfleet/rollouts/_cluster/all.yaml', rollout: cluster },
    { path: '.gitfleet/rollouts/shop/web.yaml', rollout: aRollout() },
  ]);
});

test('a record that does not parse is kept as unreadable, naming its path, beside the readable ones', () => {
  const files = new Map([
    ['.gitfleet/rollouts/shop/bad.yaml', 'kind: RolloutState\nphase: Sideways\n'],
    ['.gitfleet/rollouts/shop/web.yaml', rolloutRecordText(aRollout())],
    ['.gitfleet/rollouts/shop/broken.yaml', 'a: [\n'],
  ]);
  const views = rolloutViewsOf(files);
  assert.deepEqual(
    views.map((v) => [v.path, 'rollout' in v]),
    [
      ['.gitfleet/rollouts/shop/bad.yaml', false],
      ['.gitfleet/rollouts/shop/broken.yaml', false],
      ['.gitfleet/rollouts/shop/web.yaml', true],
    ],
  );
  assert.match(
    formatRolloutSection(views),
    /^\.gitfleet\/rollouts\/shop\/bad\.yaml: not a RolloutState record/m,
  );
});

test('a rollout block names the strategy, phase, step, revision and start, its message, then one line per cluster', () => {
  const text = formatRolloutSection([{ path: '.gitfleet/rollouts/shop/web.yaml', rollout: aRollout() }]);
  assert.equal(
    text,
    [
      'Rollouts',
      'shop/web (RolloutStrategy)  Progressing  step 1/2  revision 1a2b3c4  since 2026-12-01T15:00:00.000Z',
      '  waiting for member1 to stay Healthy for 300s',
      '  CLUSTER  STEP  STATE  COMMIT   MESSAGE',
      '  member1  1/2   Moved  1a2b3c4',
      '  member2  2/2   Held   0f0f0f0  waiting for step 1',
    ].join('\n'),
  );
});

test('a halted rollout says since when it was healthy, what failed, and clusters without a commit show a dash', () => {
  const halted = aRollout({
    phase: 'RolledBack',
    healthySince: '2026-12-01T15:01:00.000Z',
    message: 'member1: Deployment/shop/web is Degraded:\n0/2 pods ready',
    clusters: [{ name: 'member3', step: 2, state: 'RolledBack' }],
  });
  const text = formatRolloutSection([{ path: 'p', rollout: halted }]);
  assert.match(
    text,
    / {2}RolledBack {2}step 1\/2 {2}revision 1a2b3c4 {2}since \S+ {2}healthy since 2026-12-01T15:01:00\.000Z$/m,
  );
  assert.match(text, /^ {2}member1: Deployment\/shop\/web is Degraded: 0\/2 pods ready$/m);
  assert.match(text, /^ {2}member3 {2}2\/2 {3}RolledBack {2}- *$/m);
});

test('the status text is what it was without records, and ends with the Rollouts section with them', () => {
  const without = formatStatusText([row], { evictions: [], judged: ['member2=Unknown'] });
  assert.equal(
    formatStatusText([row], { evictions: [], judged: ['member2=Unknown'] }, formatRolloutSection([])),
    without,
  );
  assert.doesNotMatch(without, /Rollouts/);
  const views = rolloutViewsOf(
    new Map([['.gitfleet/rollouts/shop/web.yaml', rolloutRecordText(aRollout())]]),
  );
  const withRollouts = formatStatusText(
    [row],
    { evictions: [], judged: ['member2=Unknown'] },
    formatRolloutSection(views),
  );
  assert.ok(withRollouts.startsWith(`${without}\n\nRollouts\nshop/web (RolloutStrategy)`));
  assert.equal(formatStatusText([], undefined, formatRolloutSection([])), 'no templates');
  assert.match(formatStatusText([], undefined, formatRolloutSection(views)), /^no templates\n\nRollouts\n/);
});
