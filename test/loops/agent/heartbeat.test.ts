// The agent's heartbeat: one parentless commit replaced at every renewal, in a local repository
// and on a real git server; written on its interval by the loop's clock; a failing write is
// logged once and never stops the agent's passes.
import { after, test } from 'node:test';
import { GitfleetError } from '../../../src/core/model/gitfleet-error.js';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  renewIntervalMs,
  defaultHeartbeatSettings,
  startHeartbeat,
  writeHeartbeat,
} from '../../../src/loops/agent/heartbeat.js';
import { localAgentRepo, type AgentRepo } from '../../../src/loops/agent/agent-repo.js';
import type { Logger } from '../../../src/loops/runtime/logger.js';
import { agentMirrorOf, serveFleet } from '../../adapters/remote/remote-fixture.js';
import { commitClusterBranch, makeBareRepo, prefix } from '../../support/cluster-branch.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { fakeClock } from '../runtime/fake-clock.js';
import { fakeAgent, startFakeLoop } from './fake-agent.js';

after(removeTempDirs);

const ref = `refs/heads/${prefix}heartbeat/m1`;
const author = {
  name: 'gitfleet agent m1',
  email: 'agent-m1@test.invalid',
  time: 1_700_000_000,
  tzOffsetMinutes: 0,
};

function gitOut(gitdir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8' }).trim();
}

function beat(repo: AgentRepo, time = author.time): Promise<string> {
  return writeHeartbeat({ repo, ref, cluster: 'm1', author: { ...author, time } });
}

/** Records what a logger was told. */
function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

test("Karmada's lease defaults renew the heartbeat every 10 s", () => {
  assert.equal(renewIntervalMs(defaultHeartbeatSettings), 10_000);
  assert.equal(renewIntervalMs({ leaseDurationMs: 1000, renewIntervalFraction: 0.5 }), 500);
});

test('each heartbeat replaces the last: one parentless commit of the empty tree, its counter one up', async () => {
  const bare = makeBareRepo();
  try {
    const repo = localAgentRepo(bare.dir);
    const first = await beat(repo);
    const second = await beat(repo);
    const third = await beat(repo);
    assert.equal(
      new Set([first, second, third]).size,
      3,
      'every renewal moves the ref, even within one second',
    );
    assert.equal(gitOut(bare.dir, ['rev-parse', ref]), third);
    assert.equal(gitOut(bare.dir, ['rev-list', '--count', ref]), '1', 'the ref holds no history');
    assert.equal(
      gitOut(bare.dir, ['log', '-1', '--format=%T %P', ref]),
      '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
    );
    assert.equal(gitOut(bare.dir, ['log', '-1', '--format=%s', ref]), 'heartbeat: m1 3');
    gitOut(bare.dir, ['fsck', '--strict']);
  } finally {
    bare.dispose();
  }
});

test('a heartbeat is pushed to a git server, replacing the last one there without history', async (t) => {
  const fleet = await serveFleet();
  t.after(() => fleet.server.close().catch(() => undefined));
  const repo = agentMirrorOf({ url: fleet.url, cacheDir: fleet.cacheDir });
  await commitClusterBranch(fleet.served, 'm1', [aNamespace('shop')]);
  await repo.refresh();
  await beat(repo, author.time);
  const last = await beat(repo, author.time + 10);
  assert.equal(gitOut(fleet.served, ['rev-parse', ref]), last);
  assert.equal(gitOut(fleet.served, ['rev-list', '--count', ref]), '1');
  // A new mirror (a rebuilt cache) takes the count up from what the server holds.
  const fresh = agentMirrorOf({ url: fleet.url, cacheDir: `${fleet.cacheDir}-2` });
  await fresh.refresh();
  const after = await beat(fresh, author.time + 20);
  assert.equal(gitOut(fleet.served, ['rev-parse', ref]), after);
  assert.equal(gitOut(fleet.served, ['log', '-1', '--format=%s', ref]), 'heartbeat: m1 3');
});

test('the heartbeat is written at once and then every interval of the clock, until stopped', async () => {
  const clock = fakeClock();
  let writes = 0;
  const heartbeat = startHeartbeat({
    write: () => Promise.resolve(writes++),
    intervalMs: 10_000,
    clock,
    log: recordingLog(),
  });
  await settle(clock);
  assert.equal(writes, 1);
  for (let n = 0; n < 5; n++) {
    clock.advance(9_999);
    assert.equal(writes, n + 1, 'not before the interval');
    clock.advance(1);
    await settle(clock);
  }
  assert.equal(writes, 6);
  await heartbeat.stop();
  assert.deepEqual(clock.pending(), []);
  clock.advance(60_000);
  assert.equal(writes, 6);
});

test('a failing heartbeat is logged once, tried again every interval, and its recovery logged', async () => {
  const clock = fakeClock();
  const log = recordingLog();
  let failing = true;
  let tries = 0;
  const heartbeat = startHeartbeat({
    write: () => {
      tries++;
      return failing
        ? Promise.reject(new Error('push to https://git.example/fleet.git: 503'))
        : Promise.resolve();
    },
    intervalMs: 10_000,
    clock,
    log,
  });
  await settle(clock);
  for (let n = 0; n < 3; n++) {
    clock.advance(10_000);
    await settle(clock);
  }
  assert.equal(tries, 4);
  assert.deepEqual(log.lines, [
    'warn heartbeat: push to https://git.example/fleet.git: 503; trying again every 10000 ms (applying goes on)',
  ]);
  failing = false;
  clock.advance(10_000);
  await settle(clock);
  assert.deepEqual(log.lines.slice(1), ['info heartbeat: written again']);
  await heartbeat.stop();
});

test('a write that throws synchronously is a failed heartbeat like a rejected one, never an escaped throw (issue 27 point 1)', async () => {
  const clock = fakeClock();
  const log = recordingLog();
  let tries = 0;
  const heartbeat = startHeartbeat({
    write: () => {
      tries++;
      if (tries === 2) throw new Error('agent m1: no longer leads: no heartbeat written');
      return Promise.resolve();
    },
    intervalMs: 10_000,
    clock,
    log,
  });
  await settle(clock);
  // The timer's callback runs inside advance(): a throw escaping it would fail the test here.
  clock.advance(10_000);
  await settle(clock);
  assert.equal(tries, 2);
  assert.deepEqual(log.lines, [
    'warn heartbeat: agent m1: no longer leads: no heartbeat written; trying again every 10000 ms (applying goes on)',
  ]);
  clock.advance(10_000);
  await settle(clock);
  assert.equal(tries, 3, 'the timer goes on after the throw');
  assert.deepEqual(log.lines.slice(1), ['info heartbeat: written again']);
  await heartbeat.stop();
});

test('while the agent does not lead, the heartbeat stands by: nothing written, no warning, and it writes again once leading', async () => {
  const clock = fakeClock();
  const log = recordingLog();
  let leading = true;
  let writes = 0;
  const heartbeat = startHeartbeat({
    write: () => Promise.resolve(writes++),
    leading: () => leading,
    intervalMs: 10_000,
    clock,
    log,
  });
  await settle(clock);
  leading = false;
  for (let n = 0; n < 3; n++) {
    clock.advance(10_000);
    await settle(clock);
  }
  assert.equal(writes, 1, 'no write while standing by');
  assert.deepEqual(log.lines, ['info heartbeat: standing by (this agent does not hold its Lease)']);
  leading = true;
  clock.advance(10_000);
  await settle(clock);
  assert.equal(writes, 2);
  assert.deepEqual(log.lines.slice(1), ['info heartbeat: leading again, written']);
  await heartbeat.stop();
});

test('the agent loop writes its heartbeat on its interval, and a heartbeat that fails does not stop its passes', async () => {
  const agent = fakeAgent();
  try {
    await commitClusterBranch(agent.gitdir, 'm1', [
      aNamespace('shop'),
      aConfigMap('shop', 'web', { a: '1' }),
    ]);
    let tries = 0;
    const loop = startFakeLoop(agent, {
      heartbeat: {
        intervalMs: 10_000,
        write: () => {
          tries++;
          return Promise.reject(new Error('the Git host refuses the push'));
        },
      },
    });
    await eventuallyTrue(() => loop.results.length === 1 && tries === 1);
    assert.equal(
      loop.results[0]?.fullyApplied,
      true,
      'the pass applied the branch, the heartbeat failing beside it',
    );
    agent.clock.advance(10_000);
    await eventuallyTrue(() => tries === 2);
    await loop.stop();
  } finally {
    agent.dispose();
  }
});

/** Lets the writes the clock started finish (they resolve on real I/O or at once). */
async function settle(clock: ReturnType<typeof fakeClock>): Promise<void> {
  void clock;
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits, on events, until the condition holds. */
async function eventuallyTrue(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

test('the agent loop starts its heartbeat only once a pass has reached Git (a remote mirror exists then)', async () => {
  const bare = makeBareRepo();
  let reachable = false;
  const local = localAgentRepo(bare.dir);
  const repo: AgentRepo = {
    ...local,
    refresh: () => (reachable ? Promise.resolve() : Promise.reject(new Error('connect ECONNREFUSED'))),
  };
  const agent = fakeAgent({ repo });
  try {
    await commitClusterBranch(bare.dir, 'm1', [aNamespace('shop')]);
    let tries = 0;
    const loop = startFakeLoop(agent, {
      heartbeat: { intervalMs: 10_000, write: () => Promise.resolve(tries++) },
    });
    await eventuallyTrue(() => loop.results.length === 1);
    assert.equal(loop.results[0]?.gitReachable, false);
    agent.clock.advance(60_000);
    assert.equal(tries, 0, 'no heartbeat while no pass has reached Git');
    reachable = true;
    agent.clock.advance(60_000); // the retry's backoff
    await eventuallyTrue(() => loop.results.some((r) => r.gitReachable) && tries === 1);
    await loop.stop();
  } finally {
    bare.dispose();
  }
});

test('while beacons are accepted the push stretches to the safety poll, and the tick after they stop writes again', async () => {
  const clock = fakeClock();
  let writes = 0;
  let beaconsAccepted = true;
  const heartbeat = startHeartbeat({
    write: () => Promise.resolve(writes++),
    intervalMs: 10_000,
    stretchedMs: () => (beaconsAccepted ? 300_000 : undefined),
    clock,
    log: recordingLog(),
  });
  await settle(clock);
  assert.equal(writes, 1, 'the first beat is written at once');
  for (let s = 10; s < 300; s += 10) {
    clock.advance(10_000);
    await settle(clock);
  }
  assert.equal(writes, 1, 'no push within the stretched period');
  clock.advance(10_000);
  await settle(clock);
  assert.equal(writes, 2, 'one push when the stretched period has passed');
  clock.advance(10_000);
  await settle(clock);
  assert.equal(writes, 2);
  beaconsAccepted = false;
  clock.advance(10_000);
  await settle(clock);
  assert.equal(writes, 3, 'the doorbell gone: the next tick writes');
  clock.advance(10_000);
  await settle(clock);
  assert.equal(writes, 4, 'and every interval after');
  await heartbeat.stop();
});

test('while the Git host rate-limits the repository the next beat waits as long as it asked, and nothing is logged as failing', async () => {
  const clock = fakeClock();
  const log = recordingLog();
  let tries = 0;
  const limited = Object.assign(
    new GitfleetError('https://git.example/fleet.git: rate limited by the server (429); next request at …', {
      code: 'RateLimited',
    }),
    { waitMs: 60_000 },
  );
  const heartbeat = startHeartbeat({
    write: () => (++tries === 1 ? Promise.reject(limited) : Promise.resolve()),
    intervalMs: 10_000,
    clock,
    log,
  });
  await settle(clock);
  assert.equal(tries, 1);
  clock.advance(59_999);
  await settle(clock);
  assert.equal(tries, 1, 'no beat before the asked wait: none queued');
  clock.advance(1);
  await settle(clock);
  assert.equal(tries, 2);
  clock.advance(10_000);
  await settle(clock);
  assert.equal(tries, 3, 'then the interval again');
  assert.deepEqual(log.lines, [], 'the remote adapter logs the limit, once');
  await heartbeat.stop();
});
