// The cluster monitor with the doorbell's beacons (loops/hub/cluster-beacons.ts), on a real
// repository and the fake clock: a cluster whose agent stretched its heartbeat push to the
// safety poll stays Ready while its beacons come; it is judged a grace period after they stop;
// and a hub that restarts (its beacons lost, the heartbeat ref minutes old) judges no one
// before a full grace period in which the agent can be heard again.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeHeartbeat } from '../../../src/loops/agent/heartbeat.js';
import { localAgentRepo } from '../../../src/loops/agent/agent-repo.js';
import { clusterBeacons, type ClusterBeacons } from '../../../src/loops/hub/cluster-beacons.js';
import { clusterMonitor, type ClusterMonitor } from '../../../src/loops/hub/cluster-monitor.js';
import { defaultClusterMonitorSettings } from '../../../src/loops/hub/cluster-monitor-rules.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { fakeClock, type FakeClock } from '../runtime/fake-clock.js';
import {
  commitReadyReport,
  fleetRepoWith,
  hubPass,
  rendered,
  removeFleetRepos,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

/** A fleet of two clusters, both reported Ready. */
async function readyFleet(): Promise<{ repo: FleetRepo; clusters: string[] }> {
  const clusters = ['member1', 'member2'];
  const files: Record<string, string> = {
    'apps/shop/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
  };
  for (const c of clusters)
    files[`clusters/${c}.yaml`] =
      `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${c}\n`;
  const repo = fleetRepoWith(files, { bare: true });
  rendered(await hubPass(repo));
  for (const c of clusters) await commitReadyReport(repo, c, 'True', { kubernetesVersion: 'v1.34.4' });
  return { repo, clusters };
}

function beat(repo: FleetRepo, cluster: string, clock: FakeClock): Promise<string> {
  return writeHeartbeat({
    repo: localAgentRepo(repo.path),
    ref: `refs/heads/gitfleet/heartbeat/${cluster}`,
    cluster,
    author: {
      name: 'agent',
      email: 'agent@gitfleet.invalid',
      time: Math.floor(clock.now() / 1000),
      tzOffsetMinutes: 0,
    },
  });
}

function monitorOf(repo: FleetRepo, clock: FakeClock, beacons: ClusterBeacons): ClusterMonitor {
  return clusterMonitor({
    gitdir: repo.gitdir,
    branchPrefix: 'gitfleet/',
    settings: defaultClusterMonitorSettings,
    elapsed: () => clock.now(),
    clock,
    log: silentLogger(),
    beacons: () => beacons.counts(),
  });
}

/** Runs `seconds`: every 10 s each cluster in `beaconing` sends a beacon; the monitor looks every 5 s. */
async function run(
  clock: FakeClock,
  monitor: ClusterMonitor,
  beacons: ClusterBeacons,
  seconds: number,
  beaconing: readonly string[],
): Promise<void> {
  for (let s = 5; s <= seconds; s += 5) {
    clock.advance(5000);
    if (s % 10 === 0) for (const c of beaconing) beacons.heard(c);
    await monitor.look();
  }
}

test('beacons keep a cluster Ready while its heartbeat push is stretched; silence judges it a grace period later', async () => {
  const { repo, clusters } = await readyFleet();
  const [quiet, gone] = clusters as [string, string];
  const clock = fakeClock();
  for (const c of clusters) await beat(repo, c, clock);
  const beacons = clusterBeacons();
  const monitor = monitorOf(repo, clock, beacons);
  await monitor.look();
  // Five minutes (the safety poll) without a heartbeat push: the beacons alone prove life.
  await run(clock, monitor, beacons, 300, clusters);
  assert.deepEqual([...monitor.verdicts().keys()], []);
  // One agent's beacons stop: judged once a grace period (40 s) has passed since the last one.
  await run(clock, monitor, beacons, 40, [quiet]);
  assert.deepEqual(
    [...monitor.verdicts().keys()],
    [],
    'the last beacon was 40 s ago: not longer than the grace',
  );
  await run(clock, monitor, beacons, 5, [quiet]);
  assert.deepEqual([...monitor.verdicts().keys()], [gone]);
  assert.equal(monitor.verdicts().get(gone)?.reason, 'ClusterStatusUnknown');
});

test('a restarted hub, its beacons lost and the heartbeat minutes old, judges no one before a grace period, and the beacons that come back keep them Ready', async () => {
  const { repo, clusters } = await readyFleet();
  const [back, gone] = clusters as [string, string];
  const clock = fakeClock();
  for (const c of clusters) await beat(repo, c, clock);
  // The heartbeats were last pushed long before this hub started.
  clock.advance(240_000);
  const beacons = clusterBeacons();
  const monitor = monitorOf(repo, clock, beacons);
  await monitor.look();
  assert.deepEqual([...monitor.verdicts().keys()], [], 'a hub that just started judges no one');
  // One agent reconnects after 15 s of back-off; the other is never heard of again.
  await run(clock, monitor, beacons, 10, []);
  await run(clock, monitor, beacons, 30, [back]);
  assert.deepEqual([...monitor.verdicts().keys()], [], 'within the grace period since the start: no one');
  await run(clock, monitor, beacons, 10, [back]);
  assert.deepEqual(
    [...monitor.verdicts().keys()],
    [gone],
    'a grace period after the start: only the silent one',
  );
  await run(clock, monitor, beacons, 120, [back]);
  assert.deepEqual([...monitor.verdicts().keys()], [gone]);
});
