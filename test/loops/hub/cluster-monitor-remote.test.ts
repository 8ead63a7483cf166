// The cluster monitor of a hub on a remote repository (a real git server over smart HTTP): the
// heartbeats are read from the remote's advertisement, their moves alone make no mirror fetch,
// and a look counts at the time of the last poll that answered, so a hub cut off from the Git
// host judges no one.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { remoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { heartbeatRefPrefix } from '../../../src/core/publish/hub-refs.js';
import { writeHeartbeat } from '../../../src/loops/agent/heartbeat.js';
import { clusterMonitor, type RefSnapshot } from '../../../src/loops/hub/cluster-monitor.js';
import { defaultClusterMonitorSettings } from '../../../src/loops/hub/cluster-monitor-rules.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { serveFleet, type ServedFleet } from '../../adapters/remote/remote-fixture.js';
import { commitClusterBranch, prefix } from '../../support/cluster-branch.js';
import { aNamespace } from '../../support/kube-objects.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { fakeClock } from '../runtime/fake-clock.js';
import { quietHeartbeats } from '../../../src/cli/commands/hub-remote-setup.js';
import type { CommitSigner } from '../../../src/adapters/signing/commit-signer.js';
import { madeKey } from '../../support/signing-keys.js';

after(removeTempDirs);

const heartbeat = `refs/heads/${prefix}heartbeat/m1`;
const quietRefs = (ref: string): boolean => ref.startsWith(heartbeatRefPrefix(prefix));

function mirrorOf(fleet: ServedFleet, key: string, sourceRef: string) {
  return remoteHubRepo({
    url: fleet.url,
    cacheDir: fleet.cacheDir,
    mirrorKey: key,
    sourceRef,
    branchPrefix: prefix,
    quietRefs,
  });
}

async function agentBeats(
  agent: ReturnType<typeof mirrorOf>,
  time: number,
  signer?: CommitSigner,
): Promise<string> {
  return writeHeartbeat({
    repo: agent,
    ref: heartbeat,
    cluster: 'm1',
    author: { name: 'gitfleet agent m1', email: 'agent-m1@test.invalid', time, tzOffsetMinutes: 0 },
    ...(signer ? { signer } : {}),
  });
}

test('a heartbeat that moves alone makes no fetch; the hub reads its value from the advertisement', async (t) => {
  const fleet = await serveFleet();
  t.after(() => fleet.server.close().catch(() => undefined));
  await commitClusterBranch(fleet.served, 'm1', [aNamespace('shop')]);
  const agent = mirrorOf(fleet, 'agent m1', `${prefix}clusters/m1`);
  await agent.refresh();
  const first = await agentBeats(agent, 1_700_000_000);
  const hub = mirrorOf(fleet, 'hub', 'main');
  assert.equal((await hub.fetchRefs()).remoteBranches.get(heartbeat), first);
  const second = await agentBeats(agent, 1_700_000_010);
  const result = await hub.fetchRefs();
  assert.deepEqual(result.moved, [], 'nothing fetched, nothing moved in the mirror');
  assert.equal(result.remoteBranches.get(heartbeat), second, 'the advertisement has the new heartbeat');
  const has = (oid: string): boolean => {
    try {
      execFileSync('git', ['--git-dir', hub.gitdir, 'cat-file', '-e', oid], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  assert.equal(has(second), false, "the hub's mirror never fetched the new heartbeat commit");
});

test('on a remote, a cluster is judged by the advertised heartbeats, and not while the polls fail', async (t) => {
  const fleet = await serveFleet();
  t.after(() => fleet.server.close().catch(() => undefined));
  await commitClusterBranch(fleet.served, 'm1', [aNamespace('shop')]);
  const agent = mirrorOf(fleet, 'agent m1', `${prefix}clusters/m1`);
  await agent.refresh();
  const hub = mirrorOf(fleet, 'hub', 'main');
  const clock = fakeClock();
  let observed: RefSnapshot | undefined;
  let polling = true;
  // What the hub's poll does (hub-remote-setup.ts): a poll that answers is a snapshot.
  const poll = async (): Promise<void> => {
    if (!polling) return;
    observed = { at: clock.now(), refs: (await hub.fetchRefs()).remoteBranches };
  };
  const monitor = clusterMonitor({
    gitdir: hub.gitdir,
    branchPrefix: prefix,
    settings: defaultClusterMonitorSettings,
    elapsed: () => clock.now(),
    clock,
    log: silentLogger(),
    observe: () => observed,
  });
  // The agent beats every 10 s and the hub polls every 10 s: m1 stays unjudged.
  for (let s = 0; s <= 60; s += 10) {
    await agentBeats(agent, 1_700_000_000 + s);
    await poll();
    await monitor.look();
    clock.advance(10_000);
  }
  assert.equal(monitor.verdicts().size, 0);
  // The hub loses the Git host: the agent goes on beating, but nothing reaches the hub, and
  // the hub's time stands still for the monitor.
  polling = false;
  for (let n = 0; n < 30; n++) {
    clock.advance(5_000);
    await monitor.look();
  }
  assert.equal(monitor.verdicts().size, 0, '150 s without an answer from the host judges no one');
  // The host answers again, and the agent has stopped: the hub, blind for longer than the
  // grace period, starts over as a restarted hub does, and judges m1 (which never wrote a
  // status branch) a full startup grace period (60 s) later.
  polling = true;
  for (let n = 0; n <= 12; n++) {
    await poll();
    await monitor.look();
    clock.advance(5_000);
  }
  assert.equal(monitor.verdicts().size, 0, 'within the startup grace period of the first poll back');
  await poll();
  await monitor.look();
  assert.deepEqual(
    [...monitor.verdicts()].map(([c, v]) => `${c}=${v.reason}`),
    ['m1=ClusterStatusNeverUpdated'],
  );
});

test("a keyed cluster's heartbeat is fetched, its signature checked: signed it keeps the cluster Ready, unsigned it does not", async (t) => {
  const fleet = await serveFleet();
  t.after(() => fleet.server.close().catch(() => undefined));
  await commitClusterBranch(fleet.served, 'm1', [aNamespace('shop')]);
  const key = await madeKey('gitfleet-agent@m1');
  const agent = mirrorOf(fleet, 'agent m1', `${prefix}clusters/m1`);
  await agent.refresh();
  const hub = remoteHubRepo({
    url: fleet.url,
    cacheDir: fleet.cacheDir,
    mirrorKey: 'hub',
    sourceRef: 'main',
    branchPrefix: prefix,
    quietRefs: quietHeartbeats(prefix, (cluster) => cluster === 'm1'),
  });
  const clock = fakeClock();
  let observed: RefSnapshot | undefined;
  const monitor = clusterMonitor({
    gitdir: hub.gitdir,
    branchPrefix: prefix,
    settings: defaultClusterMonitorSettings,
    elapsed: () => clock.now(),
    clock,
    log: silentLogger(),
    observe: () => observed,
    signingKeys: () => new Map([['m1', key.publicLine]]),
  });
  const run = async (seconds: number, signer: CommitSigner | undefined): Promise<void> => {
    for (let s = 0; s < seconds; s += 10) {
      clock.advance(10_000);
      await agentBeats(agent, Math.floor(clock.now() / 1000), signer);
      observed = { at: clock.now(), refs: (await hub.fetchRefs()).remoteBranches };
      await monitor.look();
    }
  };
  await run(120, key.signer);
  const fetched = execFileSync('git', ['--git-dir', hub.gitdir, 'rev-parse', heartbeat]).toString().trim();
  assert.equal(fetched, observed?.refs.get(heartbeat), "the keyed heartbeat's commit is in the hub's mirror");
  assert.equal(monitor.verdicts().size, 0, 'signed heartbeats, fetched and checked');
  await run(80, undefined);
  assert.deepEqual([...monitor.verdicts().keys()], ['m1'], 'unsigned heartbeats prove nothing');
});
