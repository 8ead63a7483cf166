// The agent's loop against a Git host that answers 429 for an hour (the forge emulator, on the
// agent's fake clock): its real branch poll, passes and heartbeat over the real remote client,
// the cluster on the fake. While throttled the agent sends one request per wait the host asked
// for (never a storm), queues no pushes, and logs the limit once; when the limit lifts the
// newest status (the branch committed during the hour, applied) reaches the host in one push.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rateLimitGates } from '../../../src/adapters/remote/rate-limit-gate.js';
import { remoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { heartbeatRef } from '../../../src/core/publish/hub-refs.js';
import { isGitfleetError } from '../../../src/core/model/gitfleet-error.js';
import { parseStatusBranch } from '../../../src/core/status/status-branch.js';
import { agentMirrorRefs, statusBranchRef } from '../../../src/loops/agent/agent-repo.js';
import { branchPoll } from '../../../src/loops/agent/branch-poll.js';
import { writeHeartbeat } from '../../../src/loops/agent/heartbeat.js';
import { readStatusFiles } from '../../../src/loops/agent/write-status-branch.js';
import type { Logger } from '../../../src/loops/runtime/logger.js';
import { git, makeServedRepo } from '../../git-server/git-cli.js';
import { startForge } from '../../git-server/start-forge.js';
import { commitClusterBranch, prefix } from '../../support/cluster-branch.js';
import { eventually } from '../../support/eventually.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { fakeAgent, startFakeLoop } from './fake-agent.js';

after(removeTempDirs);

const hour = 3_600_000;

/** Lets the requests the last clock step started reach the forge and come back. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 15));

test(
  'a forge answering 429 for an hour: one request per asked wait, no push queued, one log line, then the newest status in one push',
  { timeout: 180_000 },
  async (t) => {
    const root = tempDir('served');
    const served = makeServedRepo(root, 'fleet.git');
    await git(served, ['symbolic-ref', 'HEAD', 'refs/heads/gitfleet/clusters/m1']);
    const objects = (a: string) => [aNamespace('shop'), aConfigMap('shop', 'web', { a })];
    await commitClusterBranch(served, 'm1', objects('1'));

    const warnings: string[] = [];
    const infos: string[] = [];
    const log: Logger = {
      info: (m) => void infos.push(m),
      warn: (m) => void warnings.push(m),
      error: (m) => void warnings.push(`error: ${m}`),
    };
    // The agent's fake clock drives the forge's limit and the client's gate alike (set once the agent is made).
    const clock = { now: () => 0 };
    const now = (): number => clock.now();
    const forge = await startForge({ root, now });
    t.after(() => forge.close());
    const rateLimits = rateLimitGates({
      now,
      random: () => 0,
      onNotice: (n) => (n.closed ? log.warn(n.message) : log.info(n.message)),
    });
    const repo = remoteHubRepo({
      url: forge.url('fleet.git'),
      cacheDir: tempDir('cache'),
      mirrorKey: 'agent m1',
      sourceRef: `${prefix}clusters/m1`,
      branchPrefix: prefix,
      onlyRefs: agentMirrorRefs(prefix, 'm1'),
      rateLimits,
    });
    const agent = fakeAgent({ repo });
    clock.now = () => agent.clock.now();
    const statusRef = statusBranchRef(prefix, 'm1');
    const { results, stop } = startFakeLoop(agent, {
      log,
      watchDrift: false,
      triggers: [branchPoll({ clock: agent.clock, intervalMs: 1000, probe: () => repo.probeSource() })],
      heartbeat: {
        intervalMs: 10_000,
        write: () =>
          writeHeartbeat({
            repo,
            ref: heartbeatRef(prefix, 'm1'),
            cluster: 'm1',
            author: { name: 'agent', email: 'agent@test.invalid', time: 1_700_000_000, tzOffsetMinutes: 0 },
          }),
      },
    });
    // A test that fails midway leaves work waiting on the fake clock: keep it moving while stopping.
    t.after(async () => {
      const ticking = setInterval(() => agent.clock.advance(1000), 10);
      await stop();
      clearInterval(ticking);
    });

    await eventually(() => results.length === 1, 'the first pass');
    await eventually(() => forge.counts('fleet.git').pushes === 2, 'its status and first heartbeat');
    const statusBefore = await git(served, ['rev-parse', statusRef]);

    forge.limitFor({ forMs: hour, retryAfterSeconds: 60 });
    const changed = await commitClusterBranch(served, 'm1', objects('2'));
    const sentBefore = forge.counts('fleet.git');
    const start = now();
    while (now() - start < hour - 5000) {
      agent.clock.advance(5000);
      await settle();
    }
    const during = forge.counts('fleet.git');
    assert.equal(during.pushes, sentBefore.pushes, 'no push reached the host during the hour');
    assert.equal(during.reads, sentBefore.reads, 'no read was served during the hour');
    // One request per opening of the gate: about 60 in the hour (each wait is 60 s and 5 s steps).
    assert.ok(
      during.limited >= 50 && during.limited <= 61,
      `one request per wait, not a storm: ${during.limited}`,
    );
    // One line per change of the wait: 60 s all hour, then the shorter rest of the hour the last refusal named.
    assert.ok(
      warnings.length >= 1 && warnings.length <= 2,
      `a line per change of the wait: ${warnings.join(' | ')}`,
    );
    for (const w of warnings)
      assert.match(w, /fleet\.git: rate limited by the server \(429\); next request at /);
    assert.equal(await git(served, ['rev-parse', statusRef]), statusBefore, 'no status was pushed');

    // The limit has lifted: within a minute the gate opens, the poll sees the branch moved, a pass applies it.
    const pushesAfterLimit = forge.counts('fleet.git').pushes;
    const lifted = now();
    const web = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'web' };
    const applied = () => (agent.fake.peek(web)?.['data'] as Record<string, string> | undefined)?.a === '2';
    const written = () => results.length >= 2 && results.at(-1)?.status.type === 'written';
    // Step the clock until the newest status is written (the watchdog of `eventually` bounds it).
    await eventually(
      () => {
        if (applied() && written()) return true;
        agent.clock.advance(1000);
        return false;
      },
      'the branch committed during the hour applied and its status written',
      60_000,
    );
    const report = parseStatusBranch(await readStatusFiles(served, statusRef));
    assert.equal(report?.appliedCommit, changed, 'the newest status reached the host');
    assert.equal(
      await git(served, ['rev-list', '--count', `${statusBefore}..${statusRef}`]),
      '1',
      'in one push: one status commit on top of the last one before the limit',
    );
    // Besides that one status push, only heartbeats: one per 10 s of the clock since the limit lifted.
    const pushes = forge.counts('fleet.git').pushes - pushesAfterLimit;
    const beats = Math.ceil((now() - lifted) / 10_000) + 1;
    assert.ok(
      pushes >= 1 && pushes <= 1 + beats,
      `the status once, and ${beats} heartbeats at most: ${pushes}`,
    );
    assert.match(infos.join('\n'), /fleet\.git: the server answers again after \d+ rate-limited answers/);
  },
);

test('a status push refused for the push budget: the pass says RateLimited, and the next pass after the wait pushes only the newest status', async (t) => {
  const root = tempDir('served');
  const served = makeServedRepo(root, 'fleet.git');
  const objects = (a: string) => [aNamespace('shop'), aConfigMap('shop', 'web', { a })];
  await commitClusterBranch(served, 'm1', objects('1'));
  const clock = { now: () => 0 };
  const forge = await startForge({ root, now: () => clock.now() });
  t.after(() => forge.close());
  const repo = remoteHubRepo({
    url: forge.url('fleet.git'),
    cacheDir: tempDir('cache'),
    mirrorKey: 'agent m1',
    sourceRef: `${prefix}clusters/m1`,
    branchPrefix: prefix,
    onlyRefs: agentMirrorRefs(prefix, 'm1'),
    rateLimits: rateLimitGates({ now: () => clock.now(), random: () => 0 }),
  });
  const agent = fakeAgent({ repo });
  clock.now = () => agent.clock.now();
  const statusRef = statusBranchRef(prefix, 'm1');
  assert.equal((await agent.pass()).status.type, 'written');
  const statusBefore = await git(served, ['rev-parse', statusRef]);

  forge.setBudget({ pushesPerMinute: 1 });
  await commitClusterBranch(served, 'm1', objects('2'));
  await assert.rejects(agent.pass(), (e: unknown) => isGitfleetError(e, 'RateLimited'));
  assert.equal(forge.counts('fleet.git').limited, 1);
  const newest = await commitClusterBranch(served, 'm1', objects('3'));
  const meanwhile = await agent.pass();
  assert.equal(meanwhile.gitReachable, false, 'the gate holds back the reads of that repository too');
  assert.equal(meanwhile.status.type, 'skipped');
  assert.equal(forge.counts('fleet.git').limited, 1, 'nothing was sent while the gate was closed');
  assert.equal(await git(served, ['rev-parse', statusRef]), statusBefore);

  agent.clock.advance(61_000);
  const after = await agent.pass();
  assert.equal(after.status.type, 'written');
  assert.equal(parseStatusBranch(await readStatusFiles(served, statusRef))?.appliedCommit, newest);
  assert.equal(
    await git(served, ['rev-list', '--count', `${statusBefore}..${statusRef}`]),
    '1',
    'the refused status was never pushed later: only the newest, once',
  );
});
