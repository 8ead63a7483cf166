import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { emptyTreeOid } from '../../../src/adapters/git/git-object.js';
import { GitWriteError } from '../../../src/adapters/git/git-write-error.js';
import { makeCommit, type CommitInput, type GitSignature } from '../../../src/adapters/git/make-commit.js';
import { writePack } from '../../../src/adapters/git/write-pack.js';
import { gitEnv, git, makeRepo, removeRepos, type TestRepo } from './git-repo-fixture.js';

after(removeRepos);

const alice: GitSignature = {
  name: 'Alice Example',
  email: 'alice@example.com',
  time: 1700000000,
  tzOffsetMinutes: 90,
};
const hub: GitSignature = {
  name: 'gitfleet',
  email: 'hub@gitfleet.invalid',
  time: 1700003600,
  tzOffsetMinutes: -300,
};

/** The commit `git commit-tree` makes for the same input. */
function gitCommitTree(repo: TestRepo, input: CommitInput): string {
  const zone = (s: GitSignature): string => {
    const abs = Math.abs(s.tzOffsetMinutes);
    return `${s.tzOffsetMinutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  };
  const committer = input.committer ?? input.author;
  return execFileSync(
    'git',
    ['--git-dir', repo.gitdir, 'commit-tree', input.tree, ...input.parents.flatMap((p) => ['-p', p])],
    {
      input: input.message,
      env: {
        ...gitEnv,
        GIT_AUTHOR_NAME: input.author.name,
        GIT_AUTHOR_EMAIL: input.author.email,
        GIT_AUTHOR_DATE: `${input.author.time} ${zone(input.author)}`,
        GIT_COMMITTER_NAME: committer.name,
        GIT_COMMITTER_EMAIL: committer.email,
        GIT_COMMITTER_DATE: `${committer.time} ${zone(committer)}`,
      },
    },
  )
    .toString()
    .trim();
}

test('A root commit, one with a parent and a merge have the ids git commit-tree gives them.', async () => {
  const repo = makeRepo({ bare: true });
  await writePack({ gitdir: repo.gitdir, objects: [{ type: 'tree', content: new Uint8Array(0) }] });
  const cases: { name: string; given: (parents: string[]) => CommitInput }[] = [
    { name: 'root', given: () => ({ tree: emptyTreeOid, parents: [], author: alice, message: 'first\n' }) },
    {
      name: 'child',
      given: (p) => ({
        tree: emptyTreeOid,
        parents: [p[0]!],
        author: alice,
        committer: hub,
        message: 'render abc: x\n\nbody\n\nGitfleet-Source-Commit: abc\n',
      }),
    },
    {
      name: 'merge',
      given: (p) => ({
        tree: emptyTreeOid,
        parents: [p[1]!, p[0]!],
        author: hub,
        message: 'merge ünïcode\n',
      }),
    },
  ];
  const made: string[] = [];
  for (const { name, given } of cases) {
    const input = given(made);
    const commit = makeCommit(input);
    assert.equal(commit.oid, gitCommitTree(repo, input), name);
    await writePack({ gitdir: repo.gitdir, objects: [commit] });
    made.push(commit.oid);
  }
  git(repo, ['fsck', '--strict', '--no-dangling', made[2]!]);
});

test('A message without a final newline gets one, as git adds it.', () => {
  const input = { tree: emptyTreeOid, parents: [], author: alice, message: 'no newline' };
  assert.equal(makeCommit(input).oid, makeCommit({ ...input, message: 'no newline\n' }).oid);
  assert.ok(Buffer.from(makeCommit(input).content).toString().endsWith('\n\nno newline\n'));
});

const invalid: { name: string; given: Partial<CommitInput>; want: string }[] = [
  {
    name: 'A name with "<" is refused.',
    given: { author: { ...alice, name: 'A <x>' } },
    want: 'InvalidIdentity',
  },
  {
    name: 'An email with a newline is refused.',
    given: { author: { ...alice, email: 'a@x\nb' } },
    want: 'InvalidIdentity',
  },
  {
    name: 'A committer time with fractions of a second is refused.',
    given: { committer: { ...hub, time: 1.5 } },
    want: 'InvalidIdentity',
  },
  {
    name: 'A zone offset beyond ±99:59 is refused.',
    given: { author: { ...alice, tzOffsetMinutes: 6000 } },
    want: 'InvalidIdentity',
  },
  {
    name: 'A tree id that is not 40 hex digits is refused.',
    given: { tree: 'HEAD' },
    want: 'InvalidObjectId',
  },
  {
    name: 'A parent id in upper case is refused.',
    given: { parents: ['AB'.repeat(20)] },
    want: 'InvalidObjectId',
  },
];

for (const { name, given, want } of invalid) {
  test(name, () => {
    const input: CommitInput = { tree: emptyTreeOid, parents: [], author: alice, message: 'm', ...given };
    assert.throws(
      () => makeCommit(input),
      (e: GitWriteError) => e.code === want,
    );
  });
}
