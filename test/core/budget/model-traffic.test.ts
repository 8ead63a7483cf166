import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelTraffic } from '../../../src/core/budget/model-traffic.js';
import type { FleetShape, TrafficSettings } from '../../../src/core/budget/traffic-settings.js';

/** Today's defaults (the generic profile). */
function defaults(over: Partial<TrafficSettings> = {}): TrafficSettings {
  return {
    hub: { intervalSeconds: 30, webhook: false, monitorPeriodSeconds: 5, monitorGracePeriodSeconds: 40 },
    agent: {
      intervalSeconds: 30,
      branchPollSeconds: 1,
      heartbeatSeconds: 10,
      statusUpdateFrequencySeconds: 10,
      safetyPollSeconds: 300,
    },
    dashboards: { count: 0, refreshSeconds: 10 },
    doorbell: false,
    statusRepositories: 0,
    renderRepositories: 0,
    work: { fixedSeconds: 2, perClusterSeconds: 0, perRenderRepositorySeconds: 0 },
    ...over,
  };
}

function idleFleet(clusters: number): FleetShape {
  return { clusters, templates: 10, fleetPushesPerHour: 0, statusChangesPerClusterPerHour: 0 };
}

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: ${actual}, expected ${expected}`);

test('One idle cluster at the defaults costs what issue 28 measured on main: 62 reads and 6 pushes a minute from the agent, 2 reads from the hub.', () => {
  const [fleet] = modelTraffic(idleFleet(1), defaults()).repositories;
  close(fleet!.by.agents.readsPerSecond * 60, 62, 'agent reads a minute');
  close(fleet!.by.hub.readsPerSecond * 60, 2, 'hub reads a minute');
  close(fleet!.total.pushesPerMinute, 6, 'pushes a minute');
  assert.equal(fleet!.refs, 2 + 3);
});

test('Agent reads grow with the clusters; the hub polls once whatever their number.', () => {
  const [fleet] = modelTraffic(idleFleet(100), defaults()).repositories;
  close(fleet!.by.agents.readsPerSecond, 100 * (1 + 1 / 30), 'agent reads');
  close(fleet!.by.hub.readsPerSecond, 1 / 30, 'hub reads');
  close(fleet!.idle.pushesPerMinute, 600, 'heartbeats');
});

test('Status repositories take the heartbeats and statuses off the fleet repository, shared out among them, and the hub reads each.', () => {
  const model = modelTraffic(idleFleet(10), defaults({ statusRepositories: 3 }));
  assert.deepEqual(
    model.repositories.map((r) => [r.name, r.role, r.statusClusters]),
    [
      ['fleet', 'fleet', 0],
      ['status-1', 'status', 4],
      ['status-2', 'status', 3],
      ['status-3', 'status', 3],
    ],
  );
  close(model.repositories[0]!.total.pushesPerMinute, 0, 'fleet pushes');
  close(model.repositories[1]!.total.pushesPerMinute, 24, 'status-1 heartbeats');
  // The cluster monitor refreshes each status repository every --cluster-monitor-period (5 s), and
  // its mirror fetches the heartbeats that moved: 4 clusters beating every 10 s move one at every look.
  close(model.repositories[1]!.total.readsPerSecond, 1 / 5 + 2 / 5, 'the hub reads status-1');
  assert.equal(model.repositories[0]!.refs, 12);
});

test('With the doorbell the agents poll at the safety poll instead of the branch poll, their resyncs read nothing, and a push is applied without waiting for the agent.', () => {
  const model = modelTraffic(idleFleet(100), defaults({ doorbell: true }));
  // refresh-gate.ts: while the doorbell is connected a resync works on the mirror as it is.
  close(model.repositories[0]!.by.agents.readsPerSecond, 100 / 300, 'agent reads');
  const rendered = modelTraffic(idleFleet(100), defaults({ doorbell: true, renderRepositories: 2 }));
  close(rendered.repositories[0]!.by.agents.readsPerSecond, 0, 'no resync reads the bindings branch');
  close(rendered.repositories[1]!.by.agents.readsPerSecond, 50 / 300, 'the safety polls of render-1');
  const without = modelTraffic(idleFleet(100), defaults());
  assert.ok(model.pushToAppliedSeconds.p99 < without.pushToAppliedSeconds.p99);
});

test('Churn adds per source push a fetch and a pass on every cluster, the render and bindings pushes, and a status push per cluster.', () => {
  const fleet: FleetShape = {
    clusters: 10,
    templates: 5,
    fleetPushesPerHour: 60,
    statusChangesPerClusterPerHour: 0,
  };
  const [busy] = modelTraffic(fleet, defaults()).repositories;
  const [idle] = modelTraffic(idleFleet(10), defaults()).repositories;
  close(busy!.total.pushesPerMinute - idle!.total.pushesPerMinute, 1 + 1 + 10, 'pushes a minute');
  // Two hub fetches of two requests each: the source, then the statuses the agents write.
  close(busy!.total.readsPerSecond - idle!.total.readsPerSecond, (4 + 20) / 60, 'reads a second');
  assert.deepEqual(busy!.perFleetPush, { reads: 24, pushes: 12 });
});

test('Status churn is capped by --cluster-status-update-frequency: facts are read no more often.', () => {
  const fleet: FleetShape = {
    clusters: 1,
    templates: 1,
    fleetPushesPerHour: 0,
    statusChangesPerClusterPerHour: 3600,
  };
  const agent = { ...defaults().agent, statusUpdateFrequencySeconds: 60 };
  const [repo] = modelTraffic(fleet, defaults({ agent })).repositories;
  close(repo!.by.agents.pushesPerMinute, 6 + 1, 'heartbeats and one status a minute');
});

test('Push to applied waits for the hub poll and the agent poll; NotReady waits the grace period, the hub poll and a monitor period.', () => {
  const model = modelTraffic(idleFleet(1), defaults());
  // U(0,30) + U(0,1): the median is 15.5 s, plus 2 s of work.
  assert.equal(model.pushToAppliedSeconds.p50, 17.5);
  assert.ok(model.pushToAppliedSeconds.p99 > 31 && model.pushToAppliedSeconds.p99 < 33);
  assert.equal(model.notReadyDetectionSeconds, 40 + 30 + 5);
  const hooked = modelTraffic(idleFleet(1), defaults({ hub: { ...defaults().hub, webhook: true } }));
  assert.equal(hooked.pushToAppliedSeconds.p50, 2.5);
});

test('Render repositories take the cluster branches and the agents polling them off the fleet repository.', () => {
  const model = modelTraffic(idleFleet(10), defaults({ renderRepositories: 2, statusRepositories: 1 }));
  assert.deepEqual(
    model.repositories.map((r) => [r.name, r.role, r.branchClusters, r.statusClusters, r.refs]),
    [
      ['fleet', 'fleet', 0, 0, 2],
      ['render-1', 'render', 5, 0, 5],
      ['render-2', 'render', 5, 0, 5],
      ['status-1', 'status', 0, 10, 20],
    ],
  );
  close(model.repositories[0]!.by.hub.readsPerSecond, 1 / 30, 'the hub polls the fleet repository');
  close(
    model.repositories[0]!.by.agents.readsPerSecond,
    10 / 30,
    'each agent reads the bindings branch there once a pass (--interval), never polls it',
  );
  close(model.repositories[1]!.by.agents.readsPerSecond, 5 * (1 + 1 / 30), 'five agents poll render-1');
});

test('A source push costs the fleet repository no agent read when the branches live in render repositories: each fetches its own there.', () => {
  const fleet: FleetShape = {
    clusters: 10,
    templates: 5,
    fleetPushesPerHour: 60,
    statusChangesPerClusterPerHour: 0,
  };
  const settings = defaults({ renderRepositories: 2, statusRepositories: 1 });
  const [busy, render] = modelTraffic(fleet, settings).repositories;
  const [idle] = modelTraffic(idleFleet(10), settings).repositories;
  close(
    busy!.by.agents.readsPerSecond,
    idle!.by.agents.readsPerSecond,
    'the bindings branch at resyncs only',
  );
  close(render!.perFleetPush.reads, 2 * 5, 'the five readers of render-1 fetch there');
});

test("With the doorbell a source push costs a render repository one read per reader (the ring's head fetched alone), the fleet repository's readers still two.", () => {
  const fleet: FleetShape = {
    clusters: 10,
    templates: 5,
    fleetPushesPerHour: 60,
    statusChangesPerClusterPerHour: 0,
  };
  const bell = { doorbell: true, statusRepositories: 1 };
  // Without the doorbell the pass that follows the poll asks where the branch is (ls-refs) and fetches.
  const [, polled] = modelTraffic(
    fleet,
    defaults({ renderRepositories: 2, statusRepositories: 1 }),
  ).repositories;
  close(polled!.perFleetPush.reads, 2 * 5, 'polled: an ls-refs and a fetch each');
  // A ring names the head: the render repository's mirror fetches it alone (fetch-known-head.ts).
  const [, rung] = modelTraffic(fleet, defaults({ ...bell, renderRepositories: 2 })).repositories;
  close(rung!.perFleetPush.reads, 1 * 5, 'rung: the fetch alone');
  close(
    rung!.by.agents.readsPerSecond - 5 / 300,
    (60 / 3600) * 5,
    'a fetch per source push, beside the safety polls',
  );
  // On the fleet repository the agent's mirror reads its status, heartbeat and the bindings branch too: it asks where.
  const [home] = modelTraffic(fleet, defaults(bell)).repositories;
  close(
    home!.by.agents.readsPerSecond - 10 / 300,
    (60 / 3600) * 2 * 10,
    'the fleet repository: two reads a ring',
  );
});

test("With the doorbell and render repositories a source push costs the fleet repository the hub's fetch alone: no agent reads the bindings branch for it, at the ring nor at its next safety poll.", () => {
  const fleet: FleetShape = {
    clusters: 100,
    templates: 5,
    fleetPushesPerHour: 60,
    statusChangesPerClusterPerHour: 0,
  };
  const settings = defaults({ doorbell: true, renderRepositories: 9, statusRepositories: 13 });
  const [home] = modelTraffic(fleet, settings).repositories;
  const [idle] = modelTraffic(idleFleet(100), settings).repositories;
  // The budget bench at 100 agents (docs/git-budget.md#measured): 2 POSTs of fleet.git after the
  // push, the hub's fetch; before the safety poll took a held head for a move, 2 more per agent.
  assert.deepEqual(home!.perFleetPush, { reads: 2, pushes: 1 });
  close(home!.by.agents.readsPerSecond, 0, 'agents: no poll, no resync, no read after a push');
  close(idle!.by.agents.readsPerSecond, 0, 'idle too');
});

test("A keyed cluster's heartbeat costs the hub a fetch of the fleet repository: the monitor checks its signature, so the mirror must hold it (at most one fetch a poll).", () => {
  const settings = defaults();
  const [plain] = modelTraffic(idleFleet(1), settings).repositories;
  const [keyed] = modelTraffic({ ...idleFleet(1), keyedClusters: 1 }, settings).repositories;
  // A heartbeat every 10 s, a poll every 30 s: every poll finds one moved and fetches (2 reads).
  close(keyed!.by.hub.readsPerSecond - plain!.by.hub.readsPerSecond, 2 / 30, 'the fetch of each poll');
  close(keyed!.by.agents.readsPerSecond, plain!.by.agents.readsPerSecond, "the agents' reads");
  // 1 keyed cluster of 100 beating every 10 s: a move every 10 s, less often than a poll's 30 s bound.
  const few = modelTraffic(
    { ...idleFleet(100), keyedClusters: 1 },
    defaults({ hub: { ...settings.hub, intervalSeconds: 5 } }),
  );
  close(few.repositories[0]!.by.hub.readsPerSecond, 1 / 5 + 2 / 10, 'a fetch a heartbeat');
  // Their heartbeats in status repositories: the fleet repository fetches none of them.
  const moved = modelTraffic({ ...idleFleet(10), keyedClusters: 10 }, defaults({ statusRepositories: 1 }));
  close(moved.repositories[0]!.by.hub.readsPerSecond, 1 / 30, 'the poll alone');
});

test('The hub records moved statuses once a look of its cluster monitor, or once a --status-record-interval: that is its push rate on the fleet repository while statuses flow.', () => {
  const busy: FleetShape = {
    clusters: 100,
    templates: 1,
    fleetPushesPerHour: 0,
    statusChangesPerClusterPerHour: 60,
  };
  const hub = { ...defaults().hub, monitorPeriodSeconds: 10 };
  const fleetOf = (over: Partial<TrafficSettings>) => modelTraffic(busy, defaults(over)).repositories[0]!;
  // 100 clusters' statuses, one a minute each, seen at every look of the monitor (10 s): 6 records a minute.
  close(fleetOf({ hub, statusRepositories: 13 }).by.hub.pushesPerMinute, 6, 'a record every look');
  close(
    fleetOf({ hub: { ...hub, statusRecordSeconds: 30 }, statusRepositories: 13 }).by.hub.pushesPerMinute,
    2,
    'a record every 30 s',
  );
  // Statuses in the fleet repository are seen at each poll of it (--interval).
  close(fleetOf({ hub }).by.hub.pushesPerMinute, 2, 'a record every poll (30 s)');
});

test('The work grows with the clusters the hub renders, and a cluster waits for its render repository among the hub’s pushes.', () => {
  const work = { fixedSeconds: 1, perClusterSeconds: 0.01, perRenderRepositorySeconds: 0.1 };
  const hub = { ...defaults().hub, webhook: true };
  const model = modelTraffic(idleFleet(100), defaults({ hub, work, renderRepositories: 10 }));
  // 1 s + 100 × 0.01 s of work, then U(0, 10 × 0.1 s) for the render push and U(0, 1 s) for the
  // agent's branch poll: the median of the waits is 1 s, their P99 2 − √0.02 s.
  assert.equal(model.pushToAppliedSeconds.p50, 3);
  assert.equal(model.pushToAppliedSeconds.p99, Math.round((4 - Math.sqrt(0.02)) * 10) / 10);
  const fewer = modelTraffic(idleFleet(100), defaults({ hub, work, renderRepositories: 1 }));
  assert.ok(
    fewer.pushToAppliedSeconds.p99 < model.pushToAppliedSeconds.p99,
    'one render repository is out sooner',
  );
  const smaller = modelTraffic(idleFleet(10), defaults({ hub, work, renderRepositories: 10 }));
  assert.equal(smaller.pushToAppliedSeconds.p50, 2.1, "0.9 s less of the hub's pass");
});
