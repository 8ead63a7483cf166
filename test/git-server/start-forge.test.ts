import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bearerArgs, git, gitFails, makeServedRepo, removeTempDirs, tempDir } from './git-cli.js';
import { startForge } from './start-forge.js';

after(removeTempDirs);

/** A work tree with one commit on main. */
async function workTree(): Promise<string> {
  const dir = tempDir('work');
  await git(dir, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  writeFileSync(join(dir, 'file.txt'), 'one\n');
  await git(dir, ['add', '.']);
  await git(dir, ['commit', '-q', '-m', 'first']);
  return dir;
}

/** A clock the test moves by hand. */
function handClock(start = Date.parse('2026-12-04T12:00:00Z')): {
  now: () => number;
  advance: (ms: number) => void;
} {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

test(
  'The forge counts advertisements, upload-pack requests and pushes per repository, and a chunked push goes through.',
  { timeout: 120_000 },
  async () => {
    const root = tempDir('served');
    makeServedRepo(root, 'fleet.git');
    makeServedRepo(root, 'status.git');
    const forge = await startForge({ root });
    try {
      const work = await workTree();
      writeFileSync(join(work, 'big.bin'), randomBytes(2 * 1024 * 1024));
      await git(work, ['add', '.']);
      await git(work, ['commit', '-q', '-m', 'big']);
      await git(work, ['push', '-q', forge.url('fleet.git'), 'main']);
      await git(work, ['-c', 'protocol.version=2', 'ls-remote', forge.url('fleet.git')]);
      await git(work, ['push', '-q', forge.url('status.git'), 'main']);
      const fleet = forge.counts('fleet.git');
      // Past http.postBuffer (1 MiB) git sends a small probe POST before the chunked one.
      assert.equal(fleet.pushes, 2);
      // The push's receive-pack advertisement, then ls-remote's advertisement and its ls-refs.
      assert.equal(fleet.advertisements, 2);
      assert.equal(fleet.uploadPacks, 1);
      assert.equal(fleet.reads, 3);
      assert.equal(forge.counts('status.git').pushes, 2);
      assert.equal(forge.counts('status.git').reads, 1);
      assert.equal(forge.counts('never.git').reads, 0);
      assert.deepEqual([...forge.allCounts().keys()].sort(), ['fleet.git', 'status.git']);
      const clone = tempDir('clone');
      await git(clone, ['clone', '-q', forge.url('fleet.git'), '.']);
      assert.equal((await git(clone, ['cat-file', '-s', 'HEAD:big.bin'])).trim(), String(2 * 1024 * 1024));
    } finally {
      await forge.close();
    }
  },
);

test(
  'Past its push budget the forge answers 429 with Retry-After and X-RateLimit headers until the window has moved on.',
  { timeout: 120_000 },
  async () => {
    const root = tempDir('served');
    makeServedRepo(root, 'fleet.git');
    const clock = handClock();
    const forge = await startForge({ root, now: clock.now, budget: { pushesPerMinute: 2 } });
    try {
      const work = await workTree();
      await git(work, ['push', '-q', forge.url('fleet.git'), 'main']);
      clock.advance(10_000);
      await git(work, ['commit', '-q', '--allow-empty', '-m', 'two']);
      await git(work, ['push', '-q', forge.url('fleet.git'), 'main']);
      await git(work, ['commit', '-q', '--allow-empty', '-m', 'three']);
      const refused = await gitFails(work, ['push', '-q', forge.url('fleet.git'), 'main']);
      assert.notEqual(refused.status, 0);
      assert.match(refused.stderr, /429/);
      assert.equal(forge.counts('fleet.git').pushes, 2);
      assert.equal(forge.counts('fleet.git').limited, 1);

      // The raw answer: the oldest push leaves the window 50 s from now.
      const answer = await fetch(`${forge.url('fleet.git')}/git-receive-pack`, {
        method: 'POST',
        body: '0000',
      });
      assert.equal(answer.status, 429);
      assert.equal(answer.headers.get('retry-after'), '50');
      assert.equal(answer.headers.get('x-ratelimit-limit'), '2');
      assert.equal(answer.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(answer.headers.get('x-ratelimit-reset'), String((clock.now() + 50_000) / 1000));
      await answer.text();

      clock.advance(50_000);
      await git(work, ['push', '-q', forge.url('fleet.git'), 'main']);
      assert.equal(forge.counts('fleet.git').pushes, 3);
    } finally {
      await forge.close();
    }
  },
);

test('Past its read budget over the sliding window the forge answers 429, and reads pass again once the window moved.', async () => {
  const root = tempDir('served');
  makeServedRepo(root, 'fleet.git');
  const clock = handClock();
  const forge = await startForge({ root, now: clock.now, budget: { readsPerSecond: 2, readWindowMs: 2000 } });
  const advertise = () => fetch(`${forge.url('fleet.git')}/info/refs?service=git-upload-pack`);
  try {
    for (let i = 0; i < 4; i++) {
      const ok = await advertise();
      assert.equal(ok.status, 200);
      await ok.arrayBuffer();
      clock.advance(100);
    }
    const refused = await advertise();
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '2');
    await refused.text();
    clock.advance(1700); // the first read is 2 s old
    const again = await advertise();
    assert.equal(again.status, 200);
    await again.arrayBuffer();
    assert.deepEqual(
      { reads: forge.counts('fleet.git').reads, limited: forge.counts('fleet.git').limited },
      { reads: 5, limited: 1 },
    );
  } finally {
    await forge.close();
  }
});

test('A limit "for an hour" refuses every request of that repository until the clock has passed it, as 429 or as a 403 secondary limit.', async () => {
  const root = tempDir('served');
  makeServedRepo(root, 'fleet.git');
  makeServedRepo(root, 'other.git');
  const clock = handClock();
  const forge = await startForge({ root, now: clock.now });
  const advertise = (repo: string) => fetch(`${forge.url(repo)}/info/refs?service=git-upload-pack`);
  try {
    forge.limitFor({ forMs: 3_600_000, repo: 'fleet.git' });
    const first = await advertise('fleet.git');
    assert.equal(first.status, 429);
    assert.equal(first.headers.get('retry-after'), '60');
    await first.text();
    const other = await advertise('other.git');
    assert.equal(other.status, 200);
    await other.arrayBuffer();
    clock.advance(3_599_000);
    const late = await advertise('fleet.git');
    assert.equal(late.status, 429);
    assert.equal(late.headers.get('retry-after'), '1');
    await late.text();
    clock.advance(1000);
    const lifted = await advertise('fleet.git');
    assert.equal(lifted.status, 200);
    await lifted.arrayBuffer();

    forge.limitFor({ forMs: 600_000, status: 403, retryAfterSeconds: null });
    const forbidden = await advertise('other.git');
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(forbidden.headers.get('retry-after'), null);
    assert.equal(forbidden.headers.get('x-ratelimit-reset'), String((clock.now() + 600_000) / 1000));
    assert.match(await forbidden.text(), /secondary rate limit/);
    assert.deepEqual(
      [
        forge.counts('fleet.git').limited,
        forge.counts('other.git').forbidden,
        forge.counts('fleet.git').reads,
      ],
      [2, 1, 1],
    );
    forge.lift();
    const open = await advertise('other.git');
    assert.equal(open.status, 200);
    await open.arrayBuffer();
  } finally {
    await forge.close();
  }
});

test(
  'Requests presenting the background token are served by git processes at its niceness, and counted as every other.',
  { timeout: 120_000 },
  async () => {
    const root = tempDir('served');
    const gitdir = makeServedRepo(root, 'fleet.git');
    // A hook runs under receive-pack, so it has the niceness of the git processes serving the push.
    const hook = join(gitdir, 'hooks', 'post-receive');
    writeFileSync(hook, `#!/bin/sh\nnice >> "${join(root, 'niceness')}"\n`, { mode: 0o755 });
    const forge = await startForge({ root, background: { token: 'in-the-back', nice: 12 } });
    try {
      const work = await workTree();
      await git(work, ['push', '-q', forge.url('fleet.git'), 'main']);
      await git(work, ['commit', '-q', '--allow-empty', '-m', 'two']);
      await git(work, [...bearerArgs('in-the-back'), 'push', '-q', forge.url('fleet.git'), 'main']);
      await git(work, ['commit', '-q', '--allow-empty', '-m', 'three']);
      await git(work, [...bearerArgs('another'), 'push', '-q', forge.url('fleet.git'), 'main']);
      const base = Number(execFileSync('nice', { encoding: 'utf8' }).trim());
      const seen = readFileSync(join(root, 'niceness'), 'utf8').trim().split('\n').map(Number);
      assert.deepEqual(seen, [base, Math.min(19, base + 12), base]);
      assert.equal(forge.counts('fleet.git').pushes, 3);
    } finally {
      await forge.close();
    }
  },
);
