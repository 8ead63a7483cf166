import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bearerArgs, git, gitFails, makeServedRepo, removeTempDirs, tempDir } from './git-cli.js';
import { startGitServer } from './start-git-server.js';

after(removeTempDirs);

/** A work tree with one commit on main, `file.txt` holding `text`. */
async function workTree(text: string): Promise<string> {
  const dir = tempDir('work');
  await git(dir, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  writeFileSync(join(dir, 'file.txt'), text);
  await git(dir, ['add', '.']);
  await git(dir, ['commit', '-q', '-m', 'first']);
  return dir;
}

test(
  'The git command line pushes to, clones from and fetches from the server, and the served repository stays sound.',
  { timeout: 120_000 },
  async () => {
    const root = tempDir('served');
    const served = makeServedRepo(root, 'fleet.git');
    const server = await startGitServer({ root });
    try {
      const work = await workTree('one\n');
      await git(work, ['push', '-q', server.url('fleet.git'), 'main']);
      assert.equal(
        await git(served, ['rev-parse', 'refs/heads/main']),
        await git(work, ['rev-parse', 'HEAD']),
      );

      const clone = tempDir('clone');
      await git(clone, ['clone', '-q', server.url('fleet.git'), '.']);
      assert.equal(await git(clone, ['show', 'HEAD:file.txt']), 'one');

      writeFileSync(join(work, 'file.txt'), 'two\n');
      await git(work, ['commit', '-q', '-am', 'second']);
      await git(work, ['push', '-q', server.url('fleet.git'), 'main']);
      await git(clone, ['fetch', '-q', 'origin']);
      assert.equal(await git(clone, ['show', 'origin/main:file.txt']), 'two');
      await git(served, ['fsck', '--strict']);
    } finally {
      await server.close();
    }
  },
);

test(
  'A fetch request large enough for git to gzip it and a push large enough to be sent chunked both go through.',
  { timeout: 120_000 },
  async () => {
    const root = tempDir('served');
    const served = makeServedRepo(root, 'big.git');
    const server = await startGitServer({ root });
    try {
      const work = await workTree('base\n');
      writeFileSync(join(work, 'big.bin'), randomBytes(3 * 1024 * 1024));
      await git(work, ['add', '.']);
      await git(work, ['commit', '-q', '-m', 'big']);
      await git(work, ['push', '-q', server.url('big.git'), 'main']);
      assert.ok(server.requests.some((r) => r.path.endsWith('/git-receive-pack') && r.chunked));

      // Many refs to fetch make many "want" lines: git gzips upload-pack requests over 1 KiB.
      const clone = tempDir('clone');
      await git(clone, ['clone', '-q', server.url('big.git'), '.']);
      for (let i = 0; i < 40; i++) {
        await git(work, ['commit', '-q', '--allow-empty', '-m', `commit ${i}`]);
        await git(work, ['branch', `branch-${i}`]);
      }
      await git(work, ['push', '-q', server.url('big.git'), '--all']);
      await git(clone, ['fetch', '-q', 'origin']);
      assert.equal(
        await git(clone, ['rev-parse', 'origin/branch-39']),
        await git(work, ['rev-parse', 'branch-39']),
      );
      assert.ok(
        server.requests.some((r) => r.path.endsWith('/git-upload-pack') && r.contentEncoding === 'gzip'),
      );
      await git(served, ['fsck', '--strict']);
    } finally {
      await server.close();
    }
  },
);

test(
  'A server with a token refuses clients without it and serves clients presenting it as a bearer token or a Basic password.',
  { timeout: 120_000 },
  async () => {
    const root = tempDir('served');
    makeServedRepo(root, 'private.git');
    const token = 'tok-' + randomBytes(8).toString('hex');
    const server = await startGitServer({ root, token });
    try {
      const work = await workTree('secret\n');
      const refused = await gitFails(work, ['push', '-q', server.url('private.git'), 'main']);
      assert.notEqual(refused.status, 0);
      assert.match(refused.stderr, /401|Authentication failed|could not read Username/i);

      await git(work, [...bearerArgs(token), 'push', '-q', server.url('private.git'), 'main']);
      const withBasic = server.url('private.git').replace('http://', `http://x-access-token:${token}@`);
      const clone = tempDir('clone');
      await git(clone, ['clone', '-q', withBasic, '.']);
      assert.equal(await git(clone, ['show', 'HEAD:file.txt']), 'secret');

      const wrong = await gitFails(clone, [
        ...bearerArgs('not-the-token'),
        'ls-remote',
        server.url('private.git'),
      ]);
      assert.notEqual(wrong.status, 0);
    } finally {
      await server.close();
    }
  },
);
