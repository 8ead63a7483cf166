// An agent's mirror (remoteHubRepo with `onlyRefs`) against git's own http-backend: it holds
// its own branches only, however many clusters the repository has, asks for them with
// protocol v2 alone (no advertisement of every ref), follows its branch, survives a fetch cut
// off mid-pack and what a killed fetch leaves behind, falls back to v0 on a host without v2,
// and fetches the source branch only while its head carries a deletion allowance.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRemoteError } from '../../../src/adapters/remote/remote-error.js';
import { remoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { git, gitFails, removeTempDirs } from '../../git-server/git-cli.js';
import { startAgentMirrorProxy } from './agent-mirror-proxy.js';
import { agentMirrorOf, commitWorkFile, serveFleet, type ServedFleet } from './remote-fixture.js';

after(removeTempDirs);

const slow = { timeout: 120_000 };
const prefix = 'gitfleet/';
// m1 is a prefix of m10…m19: ls-refs names those too, and the mirror must not take them.
const clusters = Array.from({ length: 20 }, (_, i) => `m${i + 1}`);
const branches = [
  ...clusters.flatMap((c) => ['clusters', 'status', 'heartbeat'].map((k) => `${prefix}${k}/${c}`)),
  `${prefix}bindings`,
];
const own = [`${prefix}clusters/m1`, `${prefix}status/m1`, `${prefix}heartbeat/m1`, `${prefix}bindings`];

function agentOf(fleet: ServedFleet, url = fleet.url) {
  return agentMirrorOf({ url, cacheDir: fleet.cacheDir, timeouts: { connectMs: 2_000, idleMs: 2_000 } });
}

/** Commits on a branch of the work tree and pushes it; returns the commit. */
async function pushTo(fleet: ServedFleet, branch: string, path: string, text: string, message = 'change') {
  await git(fleet.work, ['checkout', '-q', branch]);
  const oid = await commitWorkFile(fleet.work, path, text, message);
  await git(fleet.work, ['push', '-q', fleet.url, branch]);
  return oid;
}

const refsOf = async (gitdir: string) =>
  (await git(gitdir, ['for-each-ref', '--format=%(refname)'])).split('\n').filter(Boolean).sort();

test(
  "An agent's mirror of a repository with many clusters' branches holds only its own, and follows its branch.",
  slow,
  async () => {
    const fleet = await serveFleet({ branches });
    const proxy = await startAgentMirrorProxy(fleet.url);
    try {
      const other = await pushTo(fleet, `${prefix}clusters/m10`, 'apps/m10.yaml', 'kind: Secret\n');
      const agent = agentOf(fleet, proxy.url('fleet.git'));
      await agent.refresh();
      const want = own.flatMap((b) => [`refs/heads/${b}`, `refs/remotes/origin/${b}`]).sort();
      assert.deepEqual(await refsOf(agent.gitdir), want);
      assert.notEqual((await gitFails(agent.gitdir, ['cat-file', '-e', other])).status, 0, 'm10 not fetched');
      assert.deepEqual(proxy.seen, ['POST ls-refs', 'POST fetch'], 'protocol v2 only, no full advertisement');

      const moved = await pushTo(fleet, `${prefix}clusters/m1`, 'apps/m1.yaml', 'kind: ConfigMap\n');
      await agent.refresh();
      assert.equal(await git(agent.gitdir, ['rev-parse', `refs/heads/${prefix}clusters/m1`]), moved);
      assert.equal(await git(agent.gitdir, ['show', `${moved}:apps/m1.yaml`]), 'kind: ConfigMap');
      assert.deepEqual(await refsOf(agent.gitdir), want);
      await git(agent.gitdir, ['fsck', '--strict', '--no-dangling']);

      // Nothing new: one ls-refs, no fetch.
      const before = proxy.seen.length;
      await agent.refresh();
      assert.deepEqual(proxy.seen.slice(before), ['POST ls-refs']);
    } finally {
      await proxy.close();
      await fleet.server.close();
    }
  },
);

test(
  'A fetch cut off mid-pack leaves the mirror as it was, and the next refresh converges.',
  slow,
  async () => {
    const fleet = await serveFleet({ branches });
    const proxy = await startAgentMirrorProxy(fleet.url);
    try {
      const agent = agentOf(fleet, proxy.url('fleet.git'));
      await agent.refresh();
      const ref = `refs/heads/${prefix}clusters/m1`;
      const first = await git(agent.gitdir, ['rev-parse', ref]);
      const packs = readdirSync(join(agent.gitdir, 'objects', 'pack')).sort();
      // Incompressible content: the pack is far larger than what the proxy lets through.
      const big = randomBytes(64 * 1024).toString('base64');
      const second = await pushTo(fleet, `${prefix}clusters/m1`, 'apps/big.yaml', `${big}\n`);

      proxy.set({ cutFetch: true });
      await assert.rejects(agent.refresh(), (error: unknown) => {
        assert.ok(isRemoteError(error), String(error));
        assert.equal(error.terminal, false, `${error.code}: ${error.message}`);
        assert.match(error.message, /fleet\.git: fetch failed: /);
        return true;
      });
      assert.ok(proxy.cuts > 0, 'the proxy really cut a pack off');
      assert.equal(await git(agent.gitdir, ['rev-parse', ref]), first);
      assert.equal(await git(agent.gitdir, ['rev-parse', `refs/remotes/origin/${prefix}clusters/m1`]), first);
      assert.deepEqual(readdirSync(join(agent.gitdir, 'objects', 'pack')).sort(), packs);
      assert.equal(existsSync(join(agent.gitdir, 'fetch-tmp')), false);
      await git(agent.gitdir, ['fsck', '--strict', '--no-dangling']);

      proxy.set({ cutFetch: false });
      await agent.refresh();
      assert.equal(await git(agent.gitdir, ['rev-parse', ref]), second);
      await git(agent.gitdir, ['fsck', '--strict', '--no-dangling']);
    } finally {
      await proxy.close();
      await fleet.server.close();
    }
  },
);

test('What a fetch killed midway leaves behind is cleared by the next refresh.', slow, async () => {
  const fleet = await serveFleet({ branches });
  try {
    const agent = agentOf(fleet);
    await agent.refresh();
    const moved = await pushTo(fleet, `${prefix}clusters/m1`, 'apps/m1.yaml', 'kind: ConfigMap\n');
    // As a kill -9 leaves them: a half-written temp pack, a pack moved in without its index,
    // and an incoming ref at a commit the mirror lacks.
    mkdirSync(join(agent.gitdir, 'fetch-tmp'), { recursive: true });
    writeFileSync(join(agent.gitdir, 'fetch-tmp', 'fetch-0.pack'), 'PACK\0\0');
    const orphan = join(agent.gitdir, 'objects', 'pack', `pack-${'0'.repeat(40)}.pack`);
    writeFileSync(orphan, 'PACK\0\0\0\x02');
    mkdirSync(join(agent.gitdir, 'refs', 'remotes', 'incoming', prefix, 'clusters'), { recursive: true });
    writeFileSync(
      join(agent.gitdir, 'refs', 'remotes', 'incoming', prefix, 'clusters', 'm1'),
      `${'1'.repeat(40)}\n`,
    );

    await agent.refresh();
    assert.equal(await git(agent.gitdir, ['rev-parse', `refs/heads/${prefix}clusters/m1`]), moved);
    assert.equal(existsSync(orphan), false);
    assert.equal(existsSync(join(agent.gitdir, 'fetch-tmp')), false);
    assert.equal(existsSync(join(agent.gitdir, 'refs', 'remotes', 'incoming')), false);
    await git(agent.gitdir, ['fsck', '--strict', '--no-dangling']);
  } finally {
    await fleet.server.close();
  }
});

test(
  'On a host without protocol v2 the agent asks the v0 way and still holds only its own branches.',
  slow,
  async () => {
    const fleet = await serveFleet({ branches });
    const proxy = await startAgentMirrorProxy(fleet.url);
    try {
      proxy.set({ v0: true });
      const agent = agentOf(fleet, proxy.url('fleet.git'));
      await agent.refresh();
      const moved = await pushTo(fleet, `${prefix}clusters/m1`, 'apps/m1.yaml', 'kind: ConfigMap\n');
      await agent.refresh();
      assert.equal(await git(agent.gitdir, ['rev-parse', `refs/heads/${prefix}clusters/m1`]), moved);
      assert.deepEqual(
        await refsOf(agent.gitdir),
        own.flatMap((b) => [`refs/heads/${b}`, `refs/remotes/origin/${b}`]).sort(),
      );
      assert.ok(proxy.seen.includes('GET info/refs'), proxy.seen.join(', '));
      // The poll's probe falls back the same way (a v0 host answers ls-refs with nothing, not "absent").
      assert.equal(await agent.probeSource(), moved);
      assert.ok(!proxy.seen.includes('POST fetch'), proxy.seen.join(', '));
      await git(agent.gitdir, ['fsck', '--strict', '--no-dangling']);
    } finally {
      await proxy.close();
      await fleet.server.close();
    }
  },
);

test(
  'The source branch is fetched only while the head allows deletions, so the allowance can be checked.',
  slow,
  async () => {
    const fleet = await serveFleet({ branches });
    try {
      const agent = agentOf(fleet);
      await agent.refresh();
      assert.equal(
        (await gitFails(agent.gitdir, ['rev-parse', '--verify', 'refs/remotes/origin/main'])).status,
        128,
      );
      const source = await pushTo(
        fleet,
        'main',
        'apps/app.yaml',
        'kind: Secret\n',
        'remove\n\nGitfleet-Allow-Deletions: m1',
      );
      const message = `render\n\nGitfleet-Allow-Deletions: m1\nGitfleet-Source-Commit: ${source}\nGitfleet-Source-Ref: refs/heads/main`;
      await pushTo(fleet, `${prefix}clusters/m1`, 'apps/m1.yaml', 'kind: ConfigMap\n', message);
      await agent.refresh();
      assert.equal(await git(agent.gitdir, ['rev-parse', 'refs/remotes/origin/main']), source);
      assert.match(await git(agent.gitdir, ['cat-file', 'commit', source]), /Gitfleet-Allow-Deletions: m1/);
      // No local branch of the source: the agent only reads it.
      assert.equal((await gitFails(agent.gitdir, ['rev-parse', '--verify', 'refs/heads/main'])).status, 128);
      await git(agent.gitdir, ['fsck', '--strict', '--no-dangling']);
    } finally {
      await fleet.server.close();
    }
  },
);

test('An agent refresh killed (SIGKILL) at random points converges at the next refresh.', slow, async (t) => {
  const fleet = await serveFleet({ branches });
  try {
    const agent = agentOf(fleet);
    await agent.refresh();
    const child = join(new URL('.', import.meta.url).pathname, 'agent-refresh-child.js');
    let last = '';
    let midway = 0; // rounds killed before the refresh was done: where the kill landed, for the log
    for (let round = 0; round < 6; round++) {
      const big = randomBytes(32 * 1024).toString('base64');
      last = await pushTo(fleet, `${prefix}clusters/m1`, `apps/big-${round}.yaml`, `${big}\n`);
      const proc = spawn(process.execPath, [child, fleet.url, fleet.cacheDir], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // Listened for from the start: a child that fails on its own exits before the kill.
      const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
      let stderr = '';
      proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await new Promise<void>((resolve) => proc.stdout.once('data', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 300));
      proc.kill('SIGKILL');
      const code = await exited;
      // Killed, never failed: a refresh after an earlier kill must not throw.
      assert.equal(code, null, `the refresh failed on what a kill left: ${stderr}`);
      if ((await git(agent.gitdir, ['rev-parse', `refs/heads/${prefix}clusters/m1`])) !== last) midway++;
    }
    t.diagnostic(`${midway} of 6 kills landed before the refresh was done`);
    await agent.refresh();
    assert.equal(await git(agent.gitdir, ['rev-parse', `refs/heads/${prefix}clusters/m1`]), last);
    await git(agent.gitdir, ['fsck', '--strict', '--no-dangling']);
    const packs = readdirSync(join(agent.gitdir, 'objects', 'pack'));
    for (const pack of packs.filter((p) => p.endsWith('.pack')))
      assert.ok(packs.includes(pack.replace(/\.pack$/, '.idx')), `${pack} has its index`);
    assert.equal(existsSync(join(agent.gitdir, 'fetch-tmp')), false);
  } finally {
    await fleet.server.close();
  }
});

test(
  "A mirror made when agents fetched every branch goes on working as the agent's mirror.",
  slow,
  async () => {
    const fleet = await serveFleet({ branches });
    try {
      const old = remoteHubRepo({
        url: fleet.url,
        cacheDir: fleet.cacheDir,
        mirrorKey: 'agent m1',
        sourceRef: `${prefix}clusters/m1`,
        branchPrefix: prefix,
      });
      await old.refresh();
      const agent = agentOf(fleet);
      assert.equal(agent.gitdir, old.gitdir);
      const moved = await pushTo(fleet, `${prefix}clusters/m1`, 'apps/m1.yaml', 'kind: ConfigMap\n');
      await pushTo(fleet, `${prefix}clusters/m2`, 'apps/m2.yaml', 'kind: Secret\n');
      await agent.refresh();
      assert.equal(await git(agent.gitdir, ['rev-parse', `refs/heads/${prefix}clusters/m1`]), moved);
      // The other clusters' branches it held stay where they were: no longer followed.
      assert.equal(
        await git(agent.gitdir, ['rev-parse', `refs/heads/${prefix}clusters/m2`]),
        await git(fleet.served, ['rev-parse', 'main']),
      );
      await git(agent.gitdir, ['fsck', '--strict', '--no-dangling']);
    } finally {
      await fleet.server.close();
    }
  },
);
