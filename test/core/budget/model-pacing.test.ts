// The model with pacing (model-pacing.ts): what the hub's push slots and fetch turns, or the
// agents' --push-spread, bound and what they cost in latency.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forgeBudget } from '../../../src/core/budget/forge-budget.js';
import { measuredWork } from '../../../src/core/budget/model-latency.js';
import { modelTraffic } from '../../../src/core/budget/model-traffic.js';
import { renderRepositoriesFor, statusRepositoriesFor } from '../../../src/core/budget/plan-pacing.js';
import type { FleetShape, TrafficSettings } from '../../../src/core/budget/traffic-settings.js';

/** The github profile with the doorbell and a webhook (forge-profile.ts). */
function githubDoorbell(over: Partial<TrafficSettings> = {}): TrafficSettings {
  return {
    hub: { intervalSeconds: 60, webhook: true, monitorPeriodSeconds: 10, monitorGracePeriodSeconds: 40 },
    agent: {
      intervalSeconds: 300,
      branchPollSeconds: 30,
      heartbeatSeconds: 10,
      statusUpdateFrequencySeconds: 300,
      safetyPollSeconds: 300,
      doorbellHeartbeatSeconds: 4 * 3600,
      pushSpreadSeconds: 1200,
    },
    dashboards: { count: 0, refreshSeconds: 60 },
    doorbell: true,
    statusRepositories: 0,
    renderRepositories: 0,
    work: { fixedSeconds: 2, perClusterSeconds: 0, perRenderRepositorySeconds: 0 },
    pacingBudget: forgeBudget('github'),
    ...over,
  };
}

/** The same without the doorbell (and so without the hub's pacing). */
function githubAlone(): TrafficSettings {
  const { pacingBudget: _unused, ...rest } = githubDoorbell({ doorbell: false });
  return rest;
}

const fleetOf = (clusters: number, pushes = 2, changes = 1): FleetShape => ({
  clusters,
  templates: 10,
  fleetPushesPerHour: pushes,
  statusChangesPerClusterPerHour: changes,
});

test('A status lag of 5 minutes on GitHub takes 46 status repositories for 1,000 clusters (22 each, one every 13.4 s).', () => {
  assert.equal(statusRepositoriesFor(1000, forgeBudget('github'), 300), 46);
  assert.equal(statusRepositoriesFor(100, forgeBudget('github'), 120), 13);
  assert.equal(statusRepositoriesFor(1000, forgeBudget('generic'), 300), 0, 'no pacing, no need');
});

test('A fetch spread of 1 s on GitHub takes 84 render repositories for 1,000 clusters, the fewest the model keeps within it.', () => {
  const github = forgeBudget('github');
  // A ring there is one read (the head fetched alone): (12 − 12/300) / 1 → 11 fetches a second,
  // so 12 readers fetch within (12 − 1) / 11 = 1 s. At two reads a ring it took 167 of 6 readers.
  assert.equal(renderRepositoriesFor(1000, github, 300, 1), 84, '12 readers each, 11 fetches a second');
  for (const [clusters, spread] of [
    [1000, 1],
    [1000, 30],
    [10_000, 60],
  ] as const) {
    const needed = renderRepositoriesFor(clusters, github, 300, spread);
    const priced = (renderRepositories: number) =>
      modelTraffic(fleetOf(clusters, 2, 1), githubDoorbell({ renderRepositories })).pacing.fetchSpreadSeconds;
    assert.ok(priced(needed) <= spread, `${clusters} clusters in ${needed}: ${priced(needed)} s`);
    assert.ok(priced(needed - 1) > spread, `${clusters} clusters in ${needed - 1} would do`);
  }
  assert.equal(renderRepositoriesFor(1000, github, 300, 250), 0, 'the fleet repository is enough');
  assert.equal(renderRepositoriesFor(1000, forgeBudget('generic'), 300, 1), 0, 'no pacing, no need');
});

test('With the push slots no status repository takes more than 4.5 pushes a minute, however much the fleet changes.', () => {
  const model = modelTraffic(fleetOf(1000, 60, 60), githubDoorbell({ statusRepositories: 12 }));
  for (const r of model.repositories.filter((r) => r.role === 'status'))
    assert.ok(r.total.pushesPerMinute <= 4.5 + 1e-9, `${r.name}: ${r.total.pushesPerMinute}`);
  // The price: a status waits up to a period of its repository's slots (84 clusters × 13.3 s).
  assert.equal(model.pacing.statusLagSeconds, 1120.1);
});

test('After a source push the doorbell sends 1,000 readers of one repository to fetch 4 a second: the last waits 250 s.', () => {
  const model = modelTraffic(fleetOf(1000), githubDoorbell({ statusRepositories: 46 }));
  assert.equal(model.pacing.fetchSpreadSeconds, 249.8);
  // With a webhook and the doorbell the only wait left is the fetch's turn: uniform over 250 s.
  assert.equal(model.pushToAppliedSeconds.p50, 126.9);
  assert.equal(model.pushToAppliedSeconds.p99, 249.3);
  // Started together, they take turns on the same timeline, 2 turns a start (startHeadroom): the
  // last starts 999 / 2 = 499.5 s after the first, and its first status waits up to a slot period
  // more (until 6 December the model said the larger of the fetch spread and that period alone).
  assert.equal(model.pacing.startupSeconds, Math.round((499.5 + model.pacing.statusLagSeconds) * 10) / 10);
});

test('Without the doorbell, --push-spread bounds each agent to a push per spread: 100 clusters, 5 a minute.', () => {
  const settings = githubAlone();
  const [fleet] = modelTraffic(fleetOf(100, 2, 1), settings).repositories;
  assert.equal(fleet!.by.agents.pushesPerMinute, 5);
  assert.equal(modelTraffic(fleetOf(100, 2, 1), settings).pacing.statusLagSeconds, 1200);
});

test('Unpaced (no doorbell, no spread) a source push costs a push per cluster, as before pacing.', () => {
  const settings = githubAlone();
  settings.agent = { ...settings.agent, pushSpreadSeconds: 0, heartbeatSeconds: 1200 };
  const [fleet] = modelTraffic(fleetOf(100, 2, 1), settings).repositories;
  // 100 heartbeats / 20 min + 100 × (2 + 1) statuses an hour = 5 + 5 pushes a minute.
  assert.ok(Math.abs(fleet!.by.agents.pushesPerMinute - 10) < 1e-9);
  assert.equal(modelTraffic(fleetOf(100, 2, 1), settings).pacing.statusLagSeconds, 0);
});

test('With the doorbell the heartbeat push is its stretched period: 4 hours, beacons prove life meanwhile.', () => {
  const settings = githubDoorbell({ statusRepositories: 1 });
  const status = modelTraffic(fleetOf(100, 0, 0), settings).repositories.find((r) => r.role === 'status')!;
  assert.ok(Math.abs(status.idle.pushesPerMinute - (100 * 60) / (4 * 3600)) < 1e-9);
});

test('With the measured work the model meets the observed runs of the budget bench within 1.25× (docs/git-budget.md#measured).', () => {
  // bench/budget.js --observe 25 on 2 cores, 6 December: clusters, render and status
  // repositories as `gitfleet budget --fetch-spread 1s` advised, the observed P50 and P99.
  for (const [clusters, render, status, p50, p99] of [
    [25, 3, 4, 0.8, 1.1],
    [100, 9, 13, 1.3, 1.8],
    [1000, 84, 46, 3.7, 4.5],
  ] as const) {
    const settings = githubDoorbell({
      renderRepositories: render,
      statusRepositories: status,
      work: measuredWork,
    });
    const model = modelTraffic(fleetOf(clusters), settings).pushToAppliedSeconds;
    for (const [modelled, measured] of [
      [model.p50, p50],
      [model.p99, p99],
    ] as const)
      assert.ok(
        modelled / measured <= 1.25 && measured / modelled <= 1.25,
        `${clusters} clusters: ${modelled} s modelled, ${measured} s measured`,
      );
  }
  // The hub's publish is what grows: at 1,000 clusters in 84 render repositories the last is out
  // 84 × 28 ms after the first, where the doorbell's turns take 1 s.
  const thousand = modelTraffic(
    fleetOf(1000),
    githubDoorbell({ renderRepositories: 84, work: measuredWork }),
  );
  assert.ok(thousand.pushToAppliedSeconds.p99 > 2, 'not within issue 28’s 2 s behind one hub');
});
