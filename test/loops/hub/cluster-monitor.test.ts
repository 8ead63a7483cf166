// The cluster monitor on a real repository: agents' heartbeats written by the agent's own
// writer, the monitor driven by a fake clock, and the hub pass writing the judged status.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { writeHeartbeat } from '../../../src/loops/agent/heartbeat.js';
import { localAgentRepo } from '../../../src/loops/agent/agent-repo.js';
import { clusterMonitor, type ClusterMonitor } from '../../../src/loops/hub/cluster-monitor.js';
import { defaultClusterMonitorSettings } from '../../../src/loops/hub/cluster-monitor-rules.js';
import { defaultHubFailover } from '../../../src/loops/hub/hub-failover.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { fakeClock, type FakeClock } from '../runtime/fake-clock.js';
import {
  branchFiles,
  commitChange,
  commitReadyReport,
  fleetRepoWith,
  git,
  hubPass,
  rendered,
  removeFleetRepos,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

const deployment = (name: string): string =>
  [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${name}`,
    '  namespace: shop',
    'spec:',
    '  replicas: 1',
    '  selector: { matchLabels: { app: ' + name + ' } }',
    '  template:',
    '    metadata: { labels: { app: ' + name + ' } }',
    '    spec: { containers: [{ name: ' + name + ', image: nginx }] }',
    '',
  ].join('\n');

/** Two member clusters and a policy that puts every Deployment of shop on both. */
function twoMemberFleet(): FleetRepo {
  const files: Record<string, string> = {
    'apps/shop/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
    'apps/shop/web.yaml': deployment('web'),
    'apps/shop/policy.yaml': [
      'apiVersion: policy.karmada.io/v1alpha1',
      'kind: PropagationPolicy',
      'metadata:',
      '  name: shop',
      '  namespace: shop',
      'spec:',
      '  resourceSelectors:',
      '    - apiVersion: apps/v1',
      '      kind: Deployment',
      '  placement:',
      '    clusterAffinity:',
      '      clusterNames: [member1, member2]',
      '',
    ].join('\n'),
  };
  for (const c of ['member1', 'member2'])
    files[`clusters/${c}.yaml`] =
      `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${c}\n`;
  return fleetRepoWith(files, { bare: true });
}

function reportReady(repo: FleetRepo, cluster: string): Promise<void> {
  return commitReadyReport(repo, cluster, 'True', { kubernetesVersion: 'v1.34.4' });
}

function beat(repo: FleetRepo, cluster: string, clock: FakeClock): Promise<string> {
  return writeHeartbeat({
    repo: localAgentRepo(repo.path),
    ref: `refs/heads/gitfleet/heartbeat/${cluster}`,
    cluster,
    author: {
      name: `agent ${cluster}`,
      email: 'agent@gitfleet.invalid',
      time: Math.floor(clock.now() / 1000),
      tzOffsetMinutes: 0,
    },
  });
}

function monitorOf(repo: FleetRepo, clock: FakeClock): ClusterMonitor {
  return clusterMonitor({
    gitdir: repo.gitdir,
    branchPrefix: 'gitfleet/',
    settings: defaultClusterMonitorSettings,
    elapsed: () => clock.now(),
    clock,
    log: silentLogger(),
  });
}

/** Runs `seconds` of the fleet: member1's agent beats every 10 s, member2's only when `member2Beats`; the monitor looks every 5 s. */
async function run(
  repo: FleetRepo,
  clock: FakeClock,
  monitor: ClusterMonitor,
  seconds: number,
  member2Beats: boolean,
): Promise<void> {
  for (let s = 5; s <= seconds; s += 5) {
    clock.advance(5000);
    if (s % 10 === 0) {
      await beat(repo, 'member1', clock);
      if (member2Beats) await beat(repo, 'member2', clock);
    }
    await monitor.look();
  }
}

function bindingsMessage(repo: FleetRepo): string {
  return git(repo, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']);
}

function placedOn(repo: FleetRepo, record: string): string[] {
  const doc = yaml.load(branchFiles(repo, 'gitfleet/bindings').get(record)!) as {
    spec: { clusters: { name: string }[] };
  };
  return doc.spec.clusters.map((c) => c.name).sort();
}

test('a cluster whose heartbeat stops is judged Unknown, loses new placements, and is un-judged when it beats again', async () => {
  const repo = twoMemberFleet();
  const clock = fakeClock();
  rendered(await hubPass(repo));
  await reportReady(repo, 'member1');
  await reportReady(repo, 'member2');
  await beat(repo, 'member1', clock);
  await beat(repo, 'member2', clock);
  const monitor = monitorOf(repo, clock);
  const failover = {
    ...defaultHubFailover(),
    verdicts: () => monitor.verdicts(),
    judging: () => monitor.judging(),
  };
  await monitor.look();
  await run(repo, clock, monitor, 60, true);
  assert.equal(monitor.verdicts().size, 0, 'both agents beat');
  rendered(await hubPass(repo, { failover }));
  assert.doesNotMatch(bindingsMessage(repo), /Gitfleet-Cluster-Judged/);
  assert.deepEqual(placedOn(repo, 'shop/Deployment.apps/web.yaml'), ['member1', 'member2']);

  // member2's agent stops: nothing of it moves from now on.
  await run(repo, clock, monitor, 40, false);
  assert.equal(monitor.verdicts().size, 0, 'not longer than the grace period yet');
  await run(repo, clock, monitor, 10, false);
  assert.deepEqual([...monitor.verdicts().keys()], ['member2']);
  assert.equal(monitor.verdicts().get('member2')?.reason, 'ClusterStatusUnknown');

  const judged = rendered(await hubPass(repo, { failover }));
  assert.equal(judged.bindings.type, 'updated');
  assert.match(bindingsMessage(repo), /^Gitfleet-Cluster-Judged: member2=Unknown$/m);
  assert.equal((await hubPass(repo, { failover })).type, 'upToDate', 'the same verdicts are written once');
  // NoSchedule: web stays where it is, a new template is placed on member1 only.
  commitChange(repo, 'api', (work) => writeFileSync(join(work, 'apps/shop/api.yaml'), deployment('api')));
  rendered(await hubPass(repo, { failover }));
  assert.deepEqual(placedOn(repo, 'shop/Deployment.apps/api.yaml'), ['member1']);
  assert.deepEqual(placedOn(repo, 'shop/Deployment.apps/web.yaml'), ['member1', 'member2']);
  assert.match(bindingsMessage(repo), /^Gitfleet-Cluster-Judged: member2=Unknown$/m);

  // member2's agent comes back: judged until it has been seen alive for the success threshold
  // (30 s), then un-judged, and the next pass says so.
  await run(repo, clock, monitor, 10, true);
  assert.deepEqual([...monitor.verdicts().keys()], ['member2'], 'one heartbeat is not yet a recovery');
  await run(repo, clock, monitor, 30, true);
  assert.equal(monitor.verdicts().size, 0);
  rendered(await hubPass(repo, { failover }));
  assert.doesNotMatch(bindingsMessage(repo), /Gitfleet-Cluster-Judged/);
});

test('a cluster whose agent never reported is judged ClusterStatusNeverUpdated after the startup grace period', async () => {
  const repo = twoMemberFleet();
  const clock = fakeClock();
  rendered(await hubPass(repo));
  await reportReady(repo, 'member1');
  const monitor = monitorOf(repo, clock);
  await monitor.look();
  await run(repo, clock, monitor, 60, false);
  assert.equal(monitor.verdicts().size, 0, 'within the startup grace period');
  await run(repo, clock, monitor, 5, false);
  assert.deepEqual(
    [...monitor.verdicts()].map(([c, v]) => `${c}=${v.reason}`),
    ['member2=ClusterStatusNeverUpdated'],
    'member1 beats; member2 has no status branch and no heartbeat',
  );
});

test('a tombstoned cluster is not judged: only registered clusters are', async () => {
  const repo = twoMemberFleet();
  const clock = fakeClock();
  rendered(await hubPass(repo));
  commitChange(repo, 'member2 leaves', (work) => {
    writeFileSync(join(work, 'clusters/member2.yaml'), '');
    writeFileSync(join(work, 'apps/shop/policy.yaml'), readPolicyFor(['member1']));
  });
  rendered(await hubPass(repo));
  assert.ok(branchFiles(repo, 'gitfleet/clusters/member2').has('.gitfleet/tombstone.yaml'));
  const monitor = monitorOf(repo, clock);
  await monitor.look();
  await run(repo, clock, monitor, 120, false);
  // member1 beats; member2, were it still registered, would be judged ClusterStatusNeverUpdated.
  assert.deepEqual([...monitor.verdicts().keys()], []);
});

test('the monitor asks the hub loop for a pass when its verdicts change, and stops asking once stopped', async () => {
  const repo = twoMemberFleet();
  const clock = fakeClock();
  rendered(await hubPass(repo));
  await reportReady(repo, 'member1');
  await reportReady(repo, 'member2');
  const monitor = monitorOf(repo, clock);
  const reasons: string[] = [];
  await monitor.start((reason) => reasons.push(reason));
  assert.deepEqual(clock.pending(), [5000], 'the first look is one period away');
  // Each look reads the repository; the next one is set once it is done.
  for (let n = 0; n < 10; n++) {
    clock.advance(5000);
    await untilRearmed(clock);
  }
  assert.deepEqual(reasons, ['cluster verdicts changed (member1=Unknown, member2=Unknown)']);
  await monitor.stop();
  assert.deepEqual(clock.pending(), []);
});

/** Waits until the monitor has set its next look (its look in flight is done). */
async function untilRearmed(clock: FakeClock): Promise<void> {
  while (clock.pending().length === 0) await new Promise((resolve) => setImmediate(resolve));
}

function readPolicyFor(clusters: string[]): string {
  return [
    'apiVersion: policy.karmada.io/v1alpha1',
    'kind: PropagationPolicy',
    'metadata:',
    '  name: shop',
    '  namespace: shop',
    'spec:',
    '  resourceSelectors:',
    '    - apiVersion: apps/v1',
    '      kind: Deployment',
    '  placement:',
    '    clusterAffinity:',
    `      clusterNames: [${clusters.join(', ')}]`,
    '',
  ].join('\n');
}
