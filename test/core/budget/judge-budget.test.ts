import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeBudget } from '../../../src/core/budget/judge-budget.js';
import { modelTraffic } from '../../../src/core/budget/model-traffic.js';
import type { FleetShape, TrafficSettings } from '../../../src/core/budget/traffic-settings.js';

const settings = (
  over: Partial<TrafficSettings['agent']> = {},
  more: Partial<TrafficSettings> = {},
): TrafficSettings => ({
  hub: { intervalSeconds: 60, webhook: false, monitorPeriodSeconds: 60, monitorGracePeriodSeconds: 2700 },
  agent: {
    intervalSeconds: 300,
    branchPollSeconds: 30,
    heartbeatSeconds: 1200,
    statusUpdateFrequencySeconds: 300,
    safetyPollSeconds: 300,
    ...over,
  },
  dashboards: { count: 1, refreshSeconds: 60 },
  doorbell: false,
  statusRepositories: 0,
  renderRepositories: 0,
  work: { fixedSeconds: 2, perClusterSeconds: 0, perRenderRepositorySeconds: 0 },
  ...more,
});

const fleetOf = (clusters: number): FleetShape => ({
  clusters,
  templates: 1,
  fleetPushesPerHour: 0,
  statusChangesPerClusterPerHour: 0,
});

function judge(forge: 'github' | 'gitlab' | 'generic', clusters: number, s: TrafficSettings) {
  return judgeBudget(forge, modelTraffic(fleetOf(clusters), s), s);
}

test('100 clusters at the github settings fit GitHub: nothing to advise.', () => {
  const verdict = judge('github', 100, settings());
  assert.equal(verdict.within, true);
  assert.deepEqual(verdict.advice, []);
});

test('A 1 s branch poll is over the read budget; the advice names a poll that fits and the doorbell.', () => {
  const verdict = judge('github', 100, settings({ branchPollSeconds: 1 }));
  assert.equal(verdict.within, false);
  const [advice] = verdict.advice;
  const poll = Number(/--branch-poll (\d+)s/.exec(advice ?? '')?.[1]);
  assert.ok(poll > 1, advice);
  const fixed = judge('github', 100, settings({ branchPollSeconds: poll }));
  assert.equal(fixed.within, true, `the advised ${poll}s fits`);
  assert.match(advice!, /doorbell/);
});

test('A 10 s heartbeat is over the push budget; the advised status repositories fit.', () => {
  const verdict = judge('github', 100, settings({ heartbeatSeconds: 10 }));
  const advice = verdict.advice.find((a) => a.includes('pushes'))!;
  const repos = Number(/(\d+) status repositories/.exec(advice)?.[1]);
  const fixed = judge('github', 100, settings({ heartbeatSeconds: 10 }, { statusRepositories: repos }));
  assert.equal(fixed.within, true, `${repos} status repositories fit`);
});

test('GitLab counts reads and pushes together: each within its own figure, their sum past 600 a minute is over.', () => {
  // 100 × (1/8 + 1/300) reads/s ≈ 12.8/s alone would be over 10; 100 × (1/12 + 1/300) ≈ 8.7/s fits
  // alone, but with 100 heartbeats a minute the sum is past 600.
  const verdict = judge('gitlab', 100, settings({ branchPollSeconds: 12, heartbeatSeconds: 60 }));
  const [fleet] = verdict.repositories;
  assert.ok(fleet!.repository.total.readsPerSecond < 10 && fleet!.repository.total.pushesPerMinute < 600);
  assert.equal(verdict.within, false);
});

test('Past 5,000 refs a repository, GitHub advice says so; generic is never over.', () => {
  const verdict = judge(
    'github',
    2000,
    settings({ branchPollSeconds: 3600, intervalSeconds: 3600, heartbeatSeconds: 36000 }),
  );
  assert.ok(
    verdict.advice.some((a) => a.includes('6002 refs')),
    verdict.advice.join('\n'),
  );
  assert.equal(judge('generic', 100_000, settings({ branchPollSeconds: 1 })).within, true);
});
