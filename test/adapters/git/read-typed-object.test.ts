import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitReadError } from '../../../src/adapters/git/git-read-error.js';
import { isGitfleetError } from '../../../src/core/model/gitfleet-error.js';
import {
  readBlob,
  readBlobText,
  readBlobTextNow,
  readCommit,
  readCommitAndBytes,
  readCommitBytes,
  readCommitNow,
  readFileNow,
  readTree,
  readTreeEntryNow,
  readTreeNow,
  readTreePathNow,
} from '../../../src/adapters/git/read-typed-object.js';
import { testGitEnv } from '../../git-env.js';

/** A repository with one file in a subdirectory and two commits, the second packed when `pack`. */
function withRepo(run: (repo: { gitdir: string; git: (...args: string[]) => string }) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitfleet-read-typed-'));
    try {
      const git = (...args: string[]) =>
        execFileSync('git', args, { cwd: dir, env: testGitEnv }).toString().trim();
      git('init', '-q', '-b', 'main');
      mkdirSync(join(dir, 'apps'));
      writeFileSync(join(dir, 'apps', 'web.yaml'), 'kind: Deployment\n');
      git('add', '.');
      git('commit', '-q', '-m', 'first');
      writeFileSync(join(dir, 'README.md'), 'hello\n');
      git('add', '.');
      git('commit', '-q', '-m', 'second\n\nGitfleet-Source-Commit: abc');
      await run({ gitdir: join(dir, '.git'), git });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  'A commit reads back with its tree, parents, author and committer (with their times) and message, sync and async alike.',
  withRepo(async ({ gitdir, git }) => {
    const oid = git('rev-parse', 'HEAD');
    const commit = readCommitNow({ gitdir }, oid);
    assert.equal(commit.oid, oid);
    assert.equal(commit.tree, git('rev-parse', 'HEAD^{tree}'));
    assert.deepEqual(commit.parents, [git('rev-parse', 'HEAD~1')]);
    assert.deepEqual(commit.author, {
      name: 'Test Author',
      email: 'author@example.com',
      timestamp: 1700000000,
    });
    assert.deepEqual(commit.committer, {
      name: 'Test Committer',
      email: 'committer@example.com',
      timestamp: 1700000000,
    });
    assert.equal(commit.message, 'second\n\nGitfleet-Source-Commit: abc\n');
    assert.deepEqual(await readCommit({ gitdir }, oid), commit);
    git('gc', '-q');
    assert.deepEqual(readCommitNow({ gitdir }, oid), commit, 'the same from a pack');
  }),
);

test(
  'Trees, paths and blobs read as git lists them; a path that is not there reads as nothing.',
  withRepo(async ({ gitdir, git }) => {
    const tree = git('rev-parse', 'HEAD^{tree}');
    const names = readTreeNow({ gitdir }, tree).map((e) => `${e.mode} ${e.name}`);
    assert.deepEqual(names, ['100644 README.md', '40000 apps']);
    assert.deepEqual(await readTree({ gitdir }, tree), readTreeNow({ gitdir }, tree));
    const entry = readTreePathNow({ gitdir }, tree, 'apps/web.yaml');
    assert.equal(entry?.oid, git('rev-parse', 'HEAD:apps/web.yaml'));
    assert.equal(readTreePathNow({ gitdir }, tree, 'apps/nope.yaml'), undefined);
    assert.equal(readTreePathNow({ gitdir }, tree, 'README.md/below'), undefined);
    assert.equal(readBlobTextNow({ gitdir }, entry!.oid), 'kind: Deployment\n');
    assert.equal(await readBlobText({ gitdir }, entry!.oid), 'kind: Deployment\n');
    const head = git('rev-parse', 'HEAD');
    assert.equal(Buffer.from(readFileNow({ gitdir }, head, 'README.md')!).toString(), 'hello\n');
    assert.equal(readFileNow({ gitdir }, head, 'apps'), undefined, 'a directory is no file');
    assert.equal(readFileNow({ gitdir }, git('rev-parse', 'HEAD~1'), 'README.md'), undefined);
  }),
);

test(
  'An object of another type is a WrongObjectType naming the object, the path and the repository.',
  withRepo(async ({ gitdir, git }) => {
    const tree = git('rev-parse', 'HEAD^{tree}');
    const blob = git('rev-parse', 'HEAD:README.md');
    assert.throws(
      () => readCommitNow({ gitdir }, tree),
      (e) =>
        e instanceof GitReadError &&
        e.code === 'WrongObjectType' &&
        e.message === `${tree} in ${gitdir}: a tree, not a commit`,
    );
    assert.throws(
      () => readBlobTextNow({ gitdir }, tree, 'apps'),
      (e) => e instanceof GitReadError && e.message === `apps: ${tree} in ${gitdir}: a tree, not a blob`,
    );
    await assert.rejects(
      readTree({ gitdir }, blob),
      (e) => e instanceof GitReadError && e.message.endsWith('a blob, not a tree'),
    );
  }),
);

test(
  'A commit without a tree line is CorruptObject, and a missing object is MissingObject.',
  withRepo(async ({ gitdir, git }) => {
    const path = join(gitdir, 'treeless');
    writeFileSync(path, 'author A <a@b> 1 +0000\ncommitter A <a@b> 1 +0000\n\nno tree\n');
    const oid = git('hash-object', '-t', 'commit', '-w', '--literally', path);
    assert.throws(
      () => readCommitNow({ gitdir }, oid),
      (e) => e instanceof GitReadError && e.code === 'CorruptObject' && e.message.startsWith(oid),
    );
    await assert.rejects(readCommit({ gitdir }, '0'.repeat(40)), (e) => isGitfleetError(e, 'MissingObject'));
  }),
);

test(
  "A commit's bytes read back as git cat-file gives them, alone or with the commit parsed; a tree's are refused.",
  withRepo(async ({ gitdir, git }) => {
    const oid = git('rev-parse', 'HEAD');
    const stored = execFileSync('git', ['--git-dir', gitdir, 'cat-file', 'commit', oid]);
    assert.deepEqual(Buffer.from(await readCommitBytes({ gitdir }, oid)), stored);
    const both = await readCommitAndBytes({ gitdir }, oid);
    assert.deepEqual(Buffer.from(both.content), stored);
    assert.deepEqual(both.commit, readCommitNow({ gitdir }, oid));
    const tree = git('rev-parse', 'HEAD^{tree}');
    await assert.rejects(readCommitBytes({ gitdir }, tree), (e) => isGitfleetError(e, 'WrongObjectType'));
    await assert.rejects(readCommitAndBytes({ gitdir }, tree), (e) => isGitfleetError(e, 'WrongObjectType'));
  }),
);

test(
  'One entry of a tree is found by its name as the full listing has it; a name it lacks, or a prefix of one, is none.',
  withRepo(async ({ gitdir, git }) => {
    const tree = git('rev-parse', 'HEAD^{tree}');
    for (const entry of readTreeNow({ gitdir }, tree))
      assert.deepEqual(readTreeEntryNow({ gitdir }, tree, entry.name), entry);
    assert.equal(readTreeEntryNow({ gitdir }, tree, 'app'), undefined);
    assert.equal(readTreeEntryNow({ gitdir }, tree, 'README'), undefined);
    assert.equal(
      Buffer.from(await readBlob({ gitdir }, git('rev-parse', 'HEAD:README.md'))).toString(),
      'hello\n',
    );
    assert.throws(
      () => readTreeEntryNow({ gitdir }, git('rev-parse', 'HEAD:README.md'), 'x'),
      (e) => isGitfleetError(e, 'WrongObjectType'),
    );
  }),
);
