import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { emptyTreeOid } from '../../../src/adapters/git/git-object.js';
import { GitWriteError } from '../../../src/adapters/git/git-write-error.js';
import { lockRecordDirectory } from '../../../src/adapters/git/lock-record.js';
import { makeCommit } from '../../../src/adapters/git/make-commit.js';
import { updateRef } from '../../../src/adapters/git/update-ref.js';
import { currentWriter, type WriterIdentity } from '../../../src/adapters/git/writer-identity.js';
import { writeObjects } from '../../../src/adapters/git/write-objects.js';
import { git, makeRepo, removeRepos, type TestRepo } from './git-repo-fixture.js';

after(removeRepos);

const ref = 'refs/heads/gitfleet/clusters/member1';
const author = { name: 'gitfleet', email: 'hub@gitfleet.invalid', time: 1700000000, tzOffsetMinutes: 0 };

/** A repository with the ref at c1 and c2 on top of it, and a lock on the ref. */
async function lockedRepo(lockContent: string): Promise<TestRepo & { c1: string; c2: string; lock: string }> {
  const repo = makeRepo({ bare: true });
  const c1 = makeCommit({ tree: emptyTreeOid, parents: [], author, message: 'c1' });
  const c2 = makeCommit({ tree: emptyTreeOid, parents: [c1.oid], author, message: 'c2' });
  const tree = { type: 'tree' as const, content: new Uint8Array(0), oid: emptyTreeOid };
  await writeObjects({ gitdir: repo.gitdir, objects: [tree, c1, c2] });
  git(repo, ['update-ref', ref, c1.oid]);
  const lock = join(repo.gitdir, `${ref}.lock`);
  writeFileSync(lock, lockContent);
  return { ...repo, c1: c1.oid, c2: c2.oid, lock };
}

/** Writes a record of a writer listing the ref's lock, made `ageMs` before the lock. */
function writeRecord(
  repo: TestRepo,
  writer: WriterIdentity,
  opts: { file?: string; newOid: string; ageMs?: number },
) {
  const dir = join(repo.gitdir, lockRecordDirectory);
  mkdirSync(dir, { recursive: true });
  const token = 'deadbeefdeadbeef';
  const path = join(dir, opts.file ?? `${token}.json`);
  writeFileSync(
    path,
    JSON.stringify({ writer, token, locks: [{ path: `${ref}.lock`, newOid: opts.newOid }] }),
  );
  const at = (Date.now() - (opts.ageMs ?? 60_000)) / 1000;
  utimesSync(path, at, at);
}

const me = currentWriter();
/** This process's pid with another start time: the pid was reused since the writer died. */
const reusedPid: WriterIdentity = { ...me, startTime: '1' };

const cases: {
  name: string;
  lock: (c2: string) => string;
  writer: WriterIdentity;
  file?: string;
  lockOlder?: boolean;
  recovered: boolean;
}[] = [
  {
    name: 'A lock a dead writer made (its pid now runs another process) is removed and the ref moves.',
    lock: () => '',
    writer: reusedPid,
    recovered: true,
  },
  {
    name: 'A lock a dead writer had written its new id into is removed too.',
    lock: (c2) => `${c2}\n`,
    writer: reusedPid,
    recovered: true,
  },
  {
    name: 'A lock of a writer of an earlier boot is removed.',
    lock: () => '',
    writer: { ...me, bootId: 'another-boot' },
    recovered: true,
  },
  {
    name: 'A recovery that stopped half way (a claim whose claimer is gone) is taken over.',
    lock: () => '',
    writer: reusedPid,
    file: 'deadbeefdeadbeef.json.claimed-0123456789abcdef',
    recovered: true,
  },
  {
    name: 'A lock of a writer that still runs is kept.',
    lock: () => '',
    writer: me,
    recovered: false,
  },
  {
    name: 'A lock of a writer on another host is kept: nobody here can tell whether it runs.',
    lock: () => '',
    writer: { ...reusedPid, host: `not-${hostname()}` },
    recovered: false,
  },
  {
    name: 'A lock holding another id than the dead writer would have written is kept: someone else made it since.',
    lock: () => `${'e'.repeat(40)}\n`,
    writer: reusedPid,
    recovered: false,
  },
  {
    name: 'A lock older than the dead writer’s record is kept: it was there before that writer ran.',
    lock: () => '',
    writer: reusedPid,
    lockOlder: true,
    recovered: false,
  },
];

for (const c of cases) {
  test(c.name, async () => {
    const repo = await lockedRepo('');
    writeFileSync(repo.lock, c.lock(repo.c2));
    writeRecord(repo, c.writer, { newOid: repo.c2, ...(c.file ? { file: c.file } : {}) });
    if (c.lockOlder)
      utimesSync(repo.lock, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const warnings: string[] = [];
    const move = updateRef({
      gitdir: repo.gitdir,
      ref,
      newOid: repo.c2,
      expectedOld: repo.c1,
      warn: (m) => warnings.push(m),
    });
    if (c.recovered) {
      assert.equal(await move, 'updated');
      assert.equal(git(repo, ['rev-parse', ref]), repo.c2);
      assert.match(
        warnings.join('\n'),
        new RegExp(`stale ref lock\\(s\\) of gitfleet process ${c.writer.pid}`),
      );
      assert.deepEqual(readdirSync(join(repo.gitdir, lockRecordDirectory)), []);
    } else {
      await assert.rejects(move, (e) => e instanceof GitWriteError && e.code === 'RefLocked');
      assert.equal(existsSync(repo.lock), true);
      assert.equal(git(repo, ['rev-parse', ref]), repo.c1);
      assert.deepEqual(warnings, []);
    }
  });
}

test('A lock no record lists (git itself) is reported with how to check and remove it.', async () => {
  const repo = await lockedRepo('');
  await assert.rejects(
    updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c2, expectedOld: repo.c1 }),
    (e: GitWriteError) => {
      assert.equal(e.code, 'RefLocked');
      assert.ok(e.message.startsWith(`${ref}: locked: ${repo.lock} exists`), e.message);
      assert.match(e.message, new RegExp(`fuser ${repo.lock}`));
      assert.match(e.message, new RegExp(`rm ${repo.lock}`));
      return true;
    },
  );
  assert.equal(existsSync(repo.lock), true);
});

test("A lock listed by a running writer's record names that writer's pid.", async () => {
  const repo = await lockedRepo('');
  writeRecord(repo, me, { newOid: repo.c2 });
  await assert.rejects(
    updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c2, expectedOld: repo.c1 }),
    (e: GitWriteError) =>
      e.code === 'RefLocked' && e.message.includes(`gitfleet process ${me.pid}, which is running`),
  );
});

test('A batch leaves no record behind, whether it moves its refs or fails.', async () => {
  const repo = await lockedRepo('');
  await assert.rejects(updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c2, expectedOld: repo.c1 }));
  assert.deepEqual(readdirSync(join(repo.gitdir, lockRecordDirectory)), []);
  rmSync(repo.lock);
  assert.equal(
    await updateRef({ gitdir: repo.gitdir, ref, newOid: repo.c2, expectedOld: repo.c1 }),
    'updated',
  );
  assert.deepEqual(readdirSync(join(repo.gitdir, lockRecordDirectory)), []);
});
