import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyObjects } from '../../../src/adapters/remote/copy-objects.js';
import { toGitObject } from '../../../src/adapters/git/hash-object.js';
import { makeCommit } from '../../../src/adapters/git/make-commit.js';
import { encodeTree, fileMode } from '../../../src/adapters/git/tree-object.js';
import type { GitObject } from '../../../src/adapters/git/git-object.js';
import { git, gitFails, removeTempDirs, tempDir } from '../../git-server/git-cli.js';

after(removeTempDirs);

/** A repository with one commit (`dir/file.txt`), and a bare copy of it: the source and the target. */
async function sourceAndTarget(): Promise<{ source: string; target: string; base: string }> {
  const source = tempDir('source');
  await git(source, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  writeFileSync(join(source, 'file.txt'), 'one\n');
  await git(source, ['add', '.']);
  await git(source, ['commit', '-q', '-m', 'one']);
  const target = join(tempDir('target'), 'target.git');
  await git(source, ['clone', '-q', '--bare', source, target]);
  return { source: join(source, '.git'), target, base: await git(source, ['rev-parse', 'HEAD']) };
}

/** A commit on top of `parent` changing the file, built in memory: its objects, the commit last. */
function nextCommit(parent: string, text: string): GitObject[] {
  const blob = toGitObject('blob', Buffer.from(text));
  const tree = toGitObject('tree', encodeTree([{ mode: fileMode, name: 'file.txt', oid: blob.oid }]));
  const author = { name: 'hub', email: 'hub@gitfleet.invalid', time: 1_800_000_000, tzOffsetMinutes: 0 };
  return [blob, tree, makeCommit({ tree: tree.oid, parents: [parent], author, message: text })];
}

test('Objects handed over in memory are copied from there: the target holds the new commit whole, though no source repository has it.', async () => {
  const { source, target, base } = await sourceAndTarget();
  const made = nextCommit(base, 'two\n');
  const tip = made.at(-1)!.oid;
  const { copied, walked } = await copyObjects({
    from: [source],
    to: target,
    tips: [tip],
    has: new Set([base]),
    fresh: new Map(made.map((o) => [o.oid, o])),
  });
  assert.equal(copied, 3);
  assert.deepEqual(
    [...walked].sort(),
    made.map((o) => o.oid).sort(),
    'the walk lists what a push would send',
  );
  await git(target, ['update-ref', 'refs/heads/main', tip, base]);
  await git(target, ['fsck', '--strict', '--no-dangling']);
  assert.equal(await git(target, ['show', 'main:file.txt']), 'two');
  // Without them, the walk finds the tip in none of the repositories and says which.
  const other = await sourceAndTarget();
  const missing = nextCommit(other.base, 'three\n');
  await assert.rejects(
    copyObjects({
      from: [other.source],
      to: other.target,
      tips: [missing.at(-1)!.oid],
      has: new Set([other.base]),
    }),
    /in none of/,
  );
  assert.notEqual((await gitFails(other.target, ['cat-file', '-e', missing.at(-1)!.oid])).status, 0);
});

test('A fresh commit whose parent the target lacks is copied with that parent from the source, down to what the target holds.', async () => {
  const { source, target, base } = await sourceAndTarget();
  writeFileSync(join(source, '..', 'file.txt'), 'between\n');
  await git(join(source, '..'), ['commit', '-qam', 'between']);
  const between = await git(join(source, '..'), ['rev-parse', 'HEAD']);
  const made = nextCommit(between, 'two\n');
  const { copied } = await copyObjects({
    from: [source],
    to: target,
    tips: [made.at(-1)!.oid],
    has: new Set([base]),
    fresh: new Map(made.map((o) => [o.oid, o])),
  });
  // The fresh commit, tree and blob, and the commit between with its tree and blob.
  assert.equal(copied, 6);
  await git(target, ['update-ref', 'refs/heads/main', made.at(-1)!.oid, base]);
  await git(target, ['fsck', '--strict', '--no-dangling']);
});
