import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommit } from '../../../src/adapters/git/parse-commit.js';
import { testGitEnv } from '../../git-env.js';

test('A commit written by git reads back with its tree, parents, author, committer and message.', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-parse-commit-'));
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: dir, env: testGitEnv }).toString().trim();
    git('init', '-q', '-b', 'main');
    git('commit', '-q', '--allow-empty', '-m', 'first');
    git('commit', '-q', '--allow-empty', '-m', 'second\n\nbody line\n\nGitfleet-Source-Commit: abc');
    const raw = execFileSync('git', ['cat-file', 'commit', 'HEAD'], { cwd: dir, env: testGitEnv });
    const parsed = parseCommit(raw);
    assert.equal(parsed.tree, git('rev-parse', 'HEAD^{tree}'));
    assert.deepEqual(parsed.parents, [git('rev-parse', 'HEAD~1')]);
    assert.deepEqual(parsed.author, {
      name: 'Test Author',
      email: 'author@example.com',
      timestamp: 1700000000,
    });
    assert.deepEqual(parsed.committer, {
      name: 'Test Committer',
      email: 'committer@example.com',
      timestamp: 1700000000,
    });
    assert.equal(parsed.message, 'second\n\nbody line\n\nGitfleet-Source-Commit: abc\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('A header without a tree, a root commit and extra header lines are read as they are.', () => {
  const parsed = parseCommit('gpgsig -----BEGIN-----\n author x\nauthor A B <a@b> 1 +0000\n\nmsg');
  assert.equal(parsed.tree, undefined);
  assert.deepEqual(parsed.parents, []);
  assert.deepEqual(parsed.author, { name: 'A B', email: 'a@b', timestamp: 1 });
  assert.equal(parsed.committer, undefined);
  assert.equal(parsed.message, 'msg');
});
