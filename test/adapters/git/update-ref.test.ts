import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { emptyTreeOid } from '../../../src/adapters/git/git-object.js';
import { GitWriteError } from '../../../src/adapters/git/git-write-error.js';
import { isAncestor } from '../../../src/adapters/git/is-ancestor.js';
import { makeCommit } from '../../../src/adapters/git/make-commit.js';
import { readRef } from '../../../src/adapters/git/read-ref.js';
import { updateRef, updateRefs } from '../../../src/adapters/git/update-ref.js';
import { writeObjects } from '../../../src/adapters/git/write-objects.js';
import { git, gitFails, makeRepo, removeRepos, type TestRepo } from './git-repo-fixture.js';

after(removeRepos);

const ref = 'refs/heads/gitfleet/clusters/member1';
const author = { name: 'gitfleet', email: 'hub@gitfleet.invalid', time: 1700000000, tzOffsetMinutes: 0 };

/** A repository holding c1 <- c2 <- c3, an unrelated root x, a merge m of c3 and x, and a tree t. */
async function history(opts: {
  bare: boolean;
}): Promise<TestRepo & Record<'c1' | 'c2' | 'c3' | 'x' | 'm' | 't', string>> {
  const repo = makeRepo(opts);
  const commit = (parents: string[], message: string) =>
    makeCommit({ tree: emptyTreeOid, parents, author, message });
  const c1 = commit([], 'c1');
  const c2 = commit([c1.oid], 'c2');
  const c3 = commit([c2.oid], 'c3');
  const x = commit([], 'x');
  const m = commit([c3.oid, x.oid], 'm');
  const tree = { type: 'tree' as const, content: new Uint8Array(0), oid: emptyTreeOid };
  await writeObjects({ gitdir: repo.gitdir, objects: [tree, c1, c2, c3, x, m] });
  return { ...repo, c1: c1.oid, c2: c2.oid, c3: c3.oid, x: x.oid, m: m.oid, t: emptyTreeOid };
}

/** The id a ref points at according to git, or null when git finds no such ref. */
function revParse(repo: TestRepo, name: string): string | null {
  try {
    return git(repo, ['rev-parse', '--verify', '--quiet', name]);
  } catch {
    return null;
  }
}
const lockOf = (repo: TestRepo): string => join(repo.gitdir, `${ref}.lock`);

for (const bare of [true, false]) {
  test(`A ref is created, fast-forwarded and left alone when unchanged, and git agrees each time (${bare ? 'bare' : 'non-bare'}).`, async () => {
    const repo = await history({ bare });
    assert.equal(
      await updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c1, expectedOld: null }),
      'created',
    );
    assert.equal(revParse(repo, ref), repo.c1);
    assert.equal(
      await updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c3, expectedOld: repo.c1 }),
      'updated',
    );
    assert.equal(revParse(repo, ref), repo.c3);
    assert.equal(
      await updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c3, expectedOld: repo.c3 }),
      'unchanged',
    );
    assert.equal(
      await updateRef({ gitdir: repo.gitdir, ref, newOid: repo.m, expectedOld: repo.c3 }),
      'updated',
    );
    assert.equal(git(repo, ['log', '--format=%s', ref]).split('\n').length, 5);
    assert.equal(existsSync(lockOf(repo)), false);
    git(repo, ['fsck', '--strict', '--no-dangling']);
  });
}

const conflicts: {
  name: string;
  given: (r: Awaited<ReturnType<typeof history>>) => {
    current: string | null;
    expected: string | null;
    next: string;
  };
  want: string;
}[] = [
  {
    name: 'An update expecting another commit than the current one is refused as a conflict.',
    given: (r) => ({ current: r.c2, expected: r.c1, next: r.c3 }),
    want: 'RefConflict',
  },
  {
    name: 'An update expecting the ref to exist when it does not is refused as a conflict.',
    given: (r) => ({ current: null, expected: r.c1, next: r.c2 }),
    want: 'RefConflict',
  },
  {
    name: 'Creating a ref that already exists is refused as a conflict.',
    given: (r) => ({ current: r.c1, expected: null, next: r.c2 }),
    want: 'RefConflict',
  },
  {
    name: 'Moving a ref back to an ancestor is refused as a non-fast-forward.',
    given: (r) => ({ current: r.c3, expected: r.c3, next: r.c1 }),
    want: 'NonFastForward',
  },
  {
    name: 'Moving a ref to an unrelated commit is refused as a non-fast-forward.',
    given: (r) => ({ current: r.c3, expected: r.c3, next: r.x }),
    want: 'NonFastForward',
  },
  {
    name: 'Moving a ref to a commit the repository does not have is refused.',
    given: (r) => ({ current: r.c1, expected: r.c1, next: 'ab'.repeat(20) }),
    want: 'MissingObject',
  },
  {
    name: 'Moving a ref to a tree is refused.',
    given: (r) => ({ current: r.c1, expected: r.c1, next: r.t }),
    want: 'WrongObjectType',
  },
];

for (const { name, given, want } of conflicts) {
  test(name, async () => {
    const repo = await history({ bare: true });
    const { current, expected, next } = given(repo);
    if (current !== null) git(repo, ['update-ref', ref, current]);
    await assert.rejects(
      updateRef({ gitdir: repo.gitdir, ref, newOid: next, expectedOld: expected }),
      (e: GitWriteError) => {
        assert.equal(e.code, want);
        assert.ok(
          e.message.startsWith(want === 'RefConflict' || want === 'NonFastForward' ? `${ref}: ` : next),
        );
        if (want === 'RefConflict') assert.deepEqual(e.detail, { ref, expected, actual: current });
        return true;
      },
    );
    assert.equal(revParse(repo, ref), current);
    assert.equal(existsSync(lockOf(repo)), false);
  });
}

test('A batch moves every ref when every check passes, and git sees each at its new commit.', async () => {
  const repo = await history({ bare: true });
  git(repo, ['update-ref', 'refs/heads/gitfleet/clusters/b', repo.c1]);
  const updates = [
    { ref: 'refs/heads/gitfleet/clusters/a', newOid: repo.c2, expectedOld: null },
    { ref: 'refs/heads/gitfleet/clusters/b', newOid: repo.c3, expectedOld: repo.c1 },
    { ref: 'refs/heads/gitfleet/bindings', newOid: repo.x, expectedOld: null },
  ];
  assert.deepEqual(await updateRefs({ gitdir: repo.gitdir, updates }), ['created', 'updated', 'created']);
  for (const u of updates) assert.equal(revParse(repo, u.ref), u.newOid);
});

test('A batch in which one check fails moves no ref and leaves no lock.', async () => {
  const repo = await history({ bare: true });
  git(repo, ['update-ref', 'refs/heads/gitfleet/clusters/b', repo.c3]);
  const updates = [
    { ref: 'refs/heads/gitfleet/clusters/a', newOid: repo.c2, expectedOld: null },
    { ref: 'refs/heads/gitfleet/clusters/b', newOid: repo.x, expectedOld: repo.c3 },
  ];
  await assert.rejects(
    updateRefs({ gitdir: repo.gitdir, updates }),
    (e: GitWriteError) => e.code === 'NonFastForward',
  );
  assert.equal(revParse(repo, 'refs/heads/gitfleet/clusters/a'), null);
  assert.equal(revParse(repo, 'refs/heads/gitfleet/clusters/b'), repo.c3);
  assert.equal(git(repo, ['for-each-ref', '--format=%(refname)']), 'refs/heads/gitfleet/clusters/b');
  assert.equal(existsSync(join(repo.gitdir, 'refs/heads/gitfleet/clusters/a.lock')), false);
  assert.equal(existsSync(join(repo.gitdir, 'refs/heads/gitfleet/clusters/b.lock')), false);
});

test('A batch naming one ref twice is refused before any lock is taken.', async () => {
  const repo = await history({ bare: true });
  const updates = [
    { ref, newOid: repo.c1, expectedOld: null },
    { ref, newOid: repo.c2, expectedOld: null },
  ];
  await assert.rejects(
    updateRefs({ gitdir: repo.gitdir, updates }),
    (e: GitWriteError) => e.code === 'InvalidRefName',
  );
  assert.equal(revParse(repo, ref), null);
});

test('A non-fast-forward goes through only when the caller allows it explicitly.', async () => {
  const repo = await history({ bare: true });
  git(repo, ['update-ref', ref, repo.c3]);
  const move = { gitdir: repo.gitdir, ref, newOid: repo.x, expectedOld: repo.c3, allowNonFastForward: true };
  assert.equal(await updateRef(move), 'updated');
  assert.equal(revParse(repo, ref), repo.x);
});

test('A commit the caller vouches is stored (storedCommits) is not read back; one it does not vouch for is.', async () => {
  const repo = await history({ bare: true });
  git(repo, ['update-ref', ref, repo.c3]);
  // A tree named as a stored commit shows the type is not read: the caller's word stands (a push
  // just read its commits from this repository).
  const vouched = {
    gitdir: repo.gitdir,
    ref,
    newOid: repo.t,
    expectedOld: repo.c3,
    allowNonFastForward: true,
  };
  await assert.rejects(updateRef(vouched), (e: GitWriteError) => e.code === 'WrongObjectType');
  assert.equal(await updateRef({ ...vouched, storedCommits: new Set([repo.t]) }), 'updated');
  assert.equal(git(repo, ['cat-file', '-t', ref]), 'tree');
  // An id it does not vouch for is read: a commit the repository lacks is refused.
  const missing = {
    ...vouched,
    newOid: 'ab'.repeat(20),
    expectedOld: repo.t,
    storedCommits: new Set([repo.t]),
  };
  await assert.rejects(updateRef(missing), (e: GitWriteError) => e.code === 'MissingObject');
  assert.equal(git(repo, ['rev-parse', ref]), repo.t);
});

test('A lock file that is already there is reported, not broken, and the ref is left alone.', async () => {
  const repo = await history({ bare: true });
  git(repo, ['update-ref', ref, repo.c1]);
  writeFileSync(lockOf(repo), '');
  await assert.rejects(
    updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c2, expectedOld: repo.c1 }),
    (e: GitWriteError) => {
      assert.equal(e.code, 'RefLocked');
      assert.equal(e.terminal, false);
      assert.ok(e.message.startsWith(`${ref}: locked`));
      return true;
    },
  );
  assert.equal(existsSync(lockOf(repo)), true);
  assert.equal(revParse(repo, ref), repo.c1);
  assert.match(gitFails(repo, ['update-ref', ref, repo.c2]).stderr, /lock/);
});

test('A ref held in packed-refs is read and compared, and the loose ref written over it wins.', async () => {
  const repo = await history({ bare: true });
  git(repo, ['update-ref', ref, repo.c1]);
  git(repo, ['pack-refs', '--all']);
  assert.equal(existsSync(join(repo.gitdir, ref)), false);
  assert.equal(await readRef(repo.gitdir, ref), repo.c1);
  await assert.rejects(
    updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c2, expectedOld: null }),
    (e: GitWriteError) => e.code === 'RefConflict',
  );
  assert.equal(
    await updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c2, expectedOld: repo.c1 }),
    'updated',
  );
  assert.equal(revParse(repo, ref), repo.c2);
});

test('Of two writers racing from the same expected commit, exactly one moves the ref.', async () => {
  const repo = await history({ bare: true });
  git(repo, ['update-ref', ref, repo.c1]);
  const results = await Promise.allSettled([
    updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c2, expectedOld: repo.c1 }),
    updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c3, expectedOld: repo.c1 }),
  ]);
  const won = results.filter((r) => r.status === 'fulfilled');
  assert.equal(won.length, 1);
  const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
  assert.ok(['RefConflict', 'RefLocked'].includes((lost.reason as GitWriteError).code));
  assert.ok([repo.c2, repo.c3].includes(revParse(repo, ref) ?? ''));
});

const badNames = [
  'refs/heads/a..b',
  'refs/heads/a.lock',
  'refs/heads/.hidden',
  'refs/heads/a b',
  'refs/heads/a:b',
  'refs/heads/a/',
  'refs/heads//a',
  'refs/heads/a@{1}',
  'refs/heads/a.',
  'refs/heads/tab\there',
  'refs/heads/del\x7f',
];

for (const name of badNames) {
  test(`The ref name ${JSON.stringify(name)} is refused as git check-ref-format refuses it.`, async () => {
    const repo = await history({ bare: true });
    assert.notEqual(gitFails(repo, ['check-ref-format', name]).status, 0);
    await assert.rejects(
      updateRef({ gitdir: repo.gitdir, ref: name, newOid: repo.c1, expectedOld: null }),
      (e: GitWriteError) => e.code === 'InvalidRefName',
    );
  });
}

test('A name outside refs/ is refused, though git would accept it, since gitfleet moves only full ref names.', async () => {
  const repo = await history({ bare: true });
  await assert.rejects(
    updateRef({ gitdir: repo.gitdir, ref: 'heads/main', newOid: repo.c1, expectedOld: null }),
    (e: GitWriteError) => e.code === 'InvalidRefName',
  );
  assert.equal(existsSync(join(repo.gitdir, 'heads')), false);
});

test('A ref whose name runs through an existing ref, loose or packed, is refused.', async () => {
  const repo = await history({ bare: true });
  git(repo, ['update-ref', 'refs/heads/gitfleet', repo.c1]);
  await assert.rejects(
    updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c1, expectedOld: null }),
    (e: GitWriteError) => e.code === 'InvalidRefName',
  );
  git(repo, ['pack-refs', '--all']);
  await assert.rejects(
    updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c1, expectedOld: null }),
    (e: GitWriteError) => e.code === 'InvalidRefName',
  );
  mkdirSync(dirname(join(repo.gitdir, 'refs/heads/x/y')), { recursive: true });
  writeFileSync(join(repo.gitdir, 'refs/heads/x/y'), `${repo.c1}\n`);
  await assert.rejects(
    updateRef({ gitdir: repo.gitdir, ref: 'refs/heads/x', newOid: repo.c1, expectedOld: null }),
    (e: GitWriteError) => e.code === 'InvalidRefName',
  );
});

const ancestry: {
  name: string;
  given: (r: Awaited<ReturnType<typeof history>>) => [string, string];
  want: boolean;
}[] = [
  { name: 'A commit is its own ancestor.', given: (r) => [r.c2, r.c2], want: true },
  { name: 'A parent is an ancestor.', given: (r) => [r.c2, r.c3], want: true },
  { name: 'A grandparent is an ancestor.', given: (r) => [r.c1, r.c3], want: true },
  { name: 'The second parent of a merge is an ancestor of the merge.', given: (r) => [r.x, r.m], want: true },
  { name: 'A child is not an ancestor of its parent.', given: (r) => [r.c3, r.c1], want: false },
  { name: 'An unrelated root is not an ancestor.', given: (r) => [r.x, r.c3], want: false },
];

for (const { name, given, want } of ancestry) {
  test(name, async () => {
    const repo = await history({ bare: true });
    const [ancestor, descendant] = given(repo);
    assert.equal(await isAncestor({ gitdir: repo.gitdir, ancestor, descendant }), want);
    assert.equal(gitFails(repo, ['merge-base', '--is-ancestor', ancestor, descendant]).status === 0, want);
  });
}
