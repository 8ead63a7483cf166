// The remote client against the forge emulator answering as a throttled Git host: nothing is
// sent to the repository before the time the server asked for has passed on the (injected)
// clock, every repository object of that URL waits with it, one notice per change of the wait.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rateLimitGates } from '../../../src/adapters/remote/rate-limit-gate.js';
import { RateLimitedError } from '../../../src/adapters/remote/rate-limited-error.js';
import { isRemoteError } from '../../../src/adapters/remote/remote-error.js';
import { remoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { agentMirrorRefs } from '../../../src/loops/agent/agent-repo.js';
import { git, makeServedRepo, removeTempDirs, tempDir } from '../../git-server/git-cli.js';
import { startForge, type Forge } from '../../git-server/start-forge.js';
import { commitInMirror, commitWorkFile } from './remote-fixture.js';

after(removeTempDirs);

const slow = { timeout: 120_000 };
const start = Date.parse('2026-12-04T12:00:00Z');

async function throttledFleet() {
  let now = start;
  const clock = { now: () => now, advance: (ms: number) => void (now += ms) };
  const root = tempDir('served');
  makeServedRepo(root, 'fleet.git');
  const forge = await startForge({ root, now: clock.now });
  const url = forge.url('fleet.git');
  const work = tempDir('work');
  await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  await commitWorkFile(work, 'apps/app.yaml', 'kind: ConfigMap\n', 'first');
  await git(work, ['branch', 'gitfleet/clusters/m1']);
  await git(work, ['push', '-q', url, 'main', 'gitfleet/clusters/m1']);
  const notices: string[] = [];
  let limited = 0;
  const rateLimits = rateLimitGates({
    now: clock.now,
    random: () => 0,
    onNotice: (n) => notices.push(n.message),
    onLimited: () => limited++,
  });
  const cacheDir = tempDir('cache');
  const hub = remoteHubRepo({ url, cacheDir, sourceRef: 'main', branchPrefix: 'gitfleet/', rateLimits });
  const agent = remoteHubRepo({
    url,
    cacheDir,
    mirrorKey: 'agent m1',
    sourceRef: 'gitfleet/clusters/m1',
    branchPrefix: 'gitfleet/',
    onlyRefs: agentMirrorRefs('gitfleet/', 'm1'),
    rateLimits,
  });
  return { forge, url, clock, hub, agent, notices, limited: () => limited };
}

/** Every count of the repository: what was sent to it, served or refused. */
function sent(forge: Forge): number {
  const c = forge.counts('fleet.git');
  return c.reads + c.pushes + c.limited + c.forbidden;
}

const rateLimited = (e: unknown): boolean => isRemoteError(e, 'RateLimited');

test(
  'After a 429 with Retry-After 60, no request of any kind goes to that repository until 60 s have passed on the clock, then requests resume.',
  slow,
  async () => {
    const f = await throttledFleet();
    try {
      await f.hub.refresh();
      await f.agent.refresh();
      f.forge.limitFor({ forMs: 3_600_000, retryAfterSeconds: 60 });
      const first = await f.hub.refresh().then(
        () => assert.fail('the refresh passed'),
        (e: unknown) => e,
      );
      assert.ok(first instanceof RateLimitedError);
      assert.equal(first.retryAt, start + 60_000);
      const before = sent(f.forge);
      assert.equal(f.forge.counts('fleet.git').limited, 1);

      f.clock.advance(59_999);
      const commit = await commitInMirror({
        gitdir: f.agent.gitdir,
        files: { 'a.yaml': 'a\n' },
        parents: [],
        message: 's',
      });
      await assert.rejects(f.hub.refresh(), rateLimited);
      await assert.rejects(f.hub.probeSource(), rateLimited);
      await assert.rejects(f.agent.refresh(), rateLimited);
      await assert.rejects(
        f.agent.publish([{ ref: 'refs/heads/gitfleet/status/m1', oldOid: null, newOid: commit }]),
        rateLimited,
      );
      assert.equal(sent(f.forge), before, 'nothing was sent while the gate was closed');

      // Open again: one request goes out, meets the limit still in force, and the gate closes again.
      f.clock.advance(1);
      await assert.rejects(f.agent.refresh(), rateLimited);
      assert.equal(sent(f.forge), before + 1);
      assert.equal(f.limited(), 2);
      assert.deepEqual(f.notices, [
        `${f.url}: rate limited by the server (429); next request at 2026-12-04T12:01:00.000Z`,
      ]);

      f.forge.lift();
      f.clock.advance(60_000);
      await f.agent.publish([{ ref: 'refs/heads/gitfleet/status/m1', oldOid: null, newOid: commit }]);
      await f.hub.refresh();
      assert.equal(f.forge.counts('fleet.git').pushes, 2, "the setup's push, then the status push once");
      assert.equal(f.notices.at(-1), `${f.url}: the server answers again after 2 rate-limited answers`);
      assert.equal(f.notices.length, 2);
    } finally {
      await f.forge.close();
    }
  },
);

test(
  "GitHub's secondary limit, a 403 with X-RateLimit-Remaining 0 and no Retry-After, closes the gate until X-RateLimit-Reset.",
  slow,
  async () => {
    const f = await throttledFleet();
    try {
      await f.hub.refresh();
      f.forge.limitFor({ forMs: 600_000, status: 403, retryAfterSeconds: null });
      const error = await f.hub.probeSource().then(
        () => assert.fail('the probe passed'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof RateLimitedError);
      assert.equal(error.status, 403);
      assert.equal(error.retryAt, start + 600_000);
      assert.equal(error.terminal, false);
      f.clock.advance(599_000);
      await assert.rejects(f.hub.refresh(), rateLimited);
      assert.equal(f.forge.counts('fleet.git').forbidden, 1);
      f.clock.advance(1000);
      assert.notEqual(await f.hub.probeSource(), null);
    } finally {
      await f.forge.close();
    }
  },
);
