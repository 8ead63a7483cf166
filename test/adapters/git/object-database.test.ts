import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ObjectDatabase } from '../../../src/adapters/git/object-database.js';
import { PackFile } from '../../../src/adapters/git/pack-file.js';
import { readGitObject, withCache } from '../../../src/adapters/git/read-git-object.js';
import { catAllObjects, makeHistoryRepo } from './delta-repo-fixture.js';
import { git, makeRepo, removeRepos, type TestRepo } from './git-repo-fixture.js';

after(removeRepos);

function packsOf(repo: TestRepo): { pack: string; idx: string }[] {
  const dir = join(repo.gitdir, 'objects', 'pack');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.idx'))
    .map((f) => ({ idx: join(dir, f), pack: join(dir, f.replace(/\.idx$/, '.pack')) }));
}

/** Returns how many entries of each kind (whole, ofs, ref) the repository's packs hold. */
function entryKinds(repo: TestRepo): Record<string, number> {
  const kinds: Record<string, number> = { whole: 0, ofs: 0, ref: 0 };
  for (const { pack, idx } of packsOf(repo)) {
    const file = PackFile.open(pack, idx);
    for (let i = 0; i < file.index.count; i++) {
      kinds[file.readEntry(file.find(file.index.oidAt(i))).kind]!++;
    }
  }
  return kinds;
}

/** Reads every object git knows through the database and compares it with git's reading. */
function assertReadsAsGit(repo: TestRepo, db = new ObjectDatabase(repo.gitdir)): number {
  const oracle = catAllObjects(repo);
  assert.ok(oracle.length > 0);
  for (const o of oracle) {
    const read = db.read(o.oid);
    assert.equal(read.type, o.type, o.oid);
    assert.ok(read.content.equals(o.content), `${o.oid}: content differs from git cat-file`);
  }
  return oracle.length;
}

test('Every object of a pack of OFS_DELTA chains (git repack -adf --depth=50) reads as git cat-file reads it.', () => {
  const repo = makeHistoryRepo({ commits: 40, files: 12 });
  git(repo, ['repack', '-adf', '--depth=50', '--window=50']);
  const kinds = entryKinds(repo);
  assert.ok(kinds.ofs! > 100, `OFS_DELTA entries: ${JSON.stringify(kinds)}`);
  assert.equal(kinds.ref, 0);
  assertReadsAsGit(repo);
});

test('Every object of a pack of REF_DELTA entries (pack-objects without --delta-base-offset) reads as git reads it.', () => {
  const repo = makeHistoryRepo({ commits: 30, files: 8 });
  git(repo, ['-c', 'repack.useDeltaBaseOffset=false', 'repack', '-adf', '--depth=50']);
  const kinds = entryKinds(repo);
  assert.ok(kinds.ref! > 50, `REF_DELTA entries: ${JSON.stringify(kinds)}`);
  assert.equal(kinds.ofs, 0);
  assertReadsAsGit(repo);
});

test('git gc --aggressive, loose objects beside the pack, and 64-bit offsets in the index all read as git reads them.', () => {
  const repo = makeHistoryRepo({ commits: 25, files: 6 });
  git(repo, ['gc', '--aggressive', '--quiet']);
  // Objects of a later commit stay loose.
  const loose = git(repo, ['hash-object', '-w', '--stdin'], 'a loose blob\n');
  assert.equal(git(repo, ['cat-file', '-t', loose]), 'blob');
  // index-pack writes every offset past 0x100 to the 64-bit table.
  const [{ pack, idx }] = packsOf(repo) as [{ pack: string; idx: string }];
  unlinkSync(idx);
  git(repo, ['index-pack', '--index-version=2,0x100', '-o', idx, pack]);
  const large = readFileSync(idx);
  const count = large.readUInt32BE(8 + 255 * 4);
  assert.ok(large.length > 8 + 1024 + count * 28 + 40 + 8 * (count / 2), 'most offsets are 64-bit');
  assert.ok(assertReadsAsGit(repo) > count, 'the loose object is read too');
});

test('A truncated pack is CorruptObject naming the pack, never a wrong object.', () => {
  const repo = makeHistoryRepo({ commits: 10, files: 4 });
  git(repo, ['repack', '-adf', '--depth=50']);
  const [{ pack }] = packsOf(repo) as [{ pack: string; idx: string }];
  const oid = catAllObjects(repo)[0]!.oid;
  truncateSync(pack, readFileSync(pack).length - 100);
  assert.throws(
    () => new ObjectDatabase(repo.gitdir).read(oid),
    (e: Error & { code?: string }) =>
      e.code === 'CorruptObject' &&
      e.message.startsWith(`object ${oid} in ${repo.gitdir} is corrupt (${pack}: damaged pack`) &&
      /truncated/.test(e.message),
  );
});

test('A pack truncated after the reader opened it is CorruptObject naming the pack.', () => {
  const repo = makeHistoryRepo({ commits: 10, files: 4 });
  git(repo, ['repack', '-adf', '--depth=50']);
  const [{ pack }] = packsOf(repo) as [{ pack: string; idx: string }];
  const objects = catAllObjects(repo);
  const db = new ObjectDatabase(repo.gitdir);
  db.read(objects[0]!.oid);
  truncateSync(pack, 200);
  let corrupt = 0;
  for (const o of objects) {
    try {
      const read = db.read(o.oid);
      assert.ok(read.content.equals(o.content), `${o.oid}: a wrong object`);
    } catch (e) {
      assert.equal((e as { code?: string }).code, 'CorruptObject');
      assert.ok(
        (e as Error).message.startsWith(
          `object ${o.oid} in ${repo.gitdir} is corrupt (${pack}: damaged pack: entry at offset `,
        ),
        (e as Error).message,
      );
      corrupt++;
    }
  }
  assert.ok(corrupt > objects.length / 2, `${corrupt} of ${objects.length} reads failed`);
});

test('A damaged byte inside a pack entry is CorruptObject, never a wrong object.', () => {
  const repo = makeHistoryRepo({ commits: 10, files: 4 });
  git(repo, ['repack', '-adf', '--depth=50']);
  const [{ pack }] = packsOf(repo) as [{ pack: string; idx: string }];
  // git cat-file cannot read a damaged pack: git's reading is taken before the damage.
  const objects = catAllObjects(repo);
  const bytes = readFileSync(pack);
  for (let at = 2000; at < bytes.length - 40; at += 97) bytes[at] = bytes[at]! ^ 0x5a;
  writeFileSync(pack, bytes);
  let corrupt = 0;
  const db = new ObjectDatabase(repo.gitdir);
  for (const o of objects) {
    try {
      const read = db.read(o.oid);
      assert.ok(read.content.equals(o.content) && read.type === o.type, `${o.oid}: a wrong object`);
    } catch (e) {
      assert.equal((e as { code?: string }).code, 'CorruptObject', String(e));
      corrupt++;
    }
  }
  assert.ok(corrupt > 0);
});

test('A truncated index is CorruptObject naming the index.', () => {
  const repo = makeHistoryRepo({ commits: 5, files: 3 });
  git(repo, ['repack', '-adf']);
  const [{ idx }] = packsOf(repo) as [{ pack: string; idx: string }];
  const oid = catAllObjects(repo)[0]!.oid;
  truncateSync(idx, readFileSync(idx).length - 30);
  assert.throws(
    () => new ObjectDatabase(repo.gitdir).read(oid),
    (e: Error & { code?: string }) =>
      e.code === 'CorruptObject' && e.message.includes(`is corrupt (${idx}: damaged pack index`),
  );
});

test('A missing object is MissingObject naming the object and the repository.', async () => {
  const repo = makeHistoryRepo({ commits: 3, files: 2 });
  git(repo, ['repack', '-adf']);
  const oid = 'deadbeef'.repeat(5);
  await assert.rejects(readGitObject({ gitdir: repo.gitdir }, oid), {
    code: 'MissingObject',
    message: `${oid}: no such object in ${repo.gitdir}`,
  });
});

test('Packs removed by a repack after the reader listed them are found again in a new listing.', async () => {
  const repo = makeRepo({ bare: true });
  // More packs than the reader keeps open, so the first ones' files are closed and must be opened again.
  const blobs: string[] = [];
  for (let i = 0; i < 70; i++) {
    const oid = git(repo, ['hash-object', '-w', '--stdin'], `blob ${i}\n`);
    git(repo, ['pack-objects', '-q', join(repo.gitdir, 'objects', 'pack', 'pack')], `${oid}\n`);
    blobs.push(oid);
  }
  git(repo, ['prune-packed']);
  const source = withCache({ gitdir: repo.gitdir });
  for (const oid of blobs) assert.equal((await readGitObject(source, oid)).type, 'blob');
  // What a repack does: one pack of every object, then the old packs removed.
  const old = packsOf(repo);
  git(repo, ['pack-objects', '-q', join(repo.gitdir, 'objects', 'pack', 'pack')], `${blobs.join('\n')}\n`);
  for (const { pack, idx } of old) {
    unlinkSync(idx);
    unlinkSync(pack);
  }
  assert.equal(packsOf(repo).length, 1);
  for (const [i, oid] of blobs.entries()) {
    assert.equal(Buffer.from((await readGitObject(source, oid)).content).toString(), `blob ${i}\n`);
  }
  const db = new ObjectDatabase(repo.gitdir);
  db.read(blobs[0]!);
  assert.equal(db.stats().packs, 1);
});

test('Reading every object of a large pack of deltas keeps the delta base cache under its byte bound.', () => {
  const repo = makeHistoryRepo({ commits: 60, files: 10, lines: 200 });
  git(repo, ['repack', '-adf', '--depth=50', '--window=50']);
  const maxBaseCacheBytes = 64 * 1024;
  const db = new ObjectDatabase(repo.gitdir, { maxBaseCacheBytes });
  let most = 0;
  for (const o of catAllObjects(repo)) {
    db.read(o.oid);
    const { baseCacheBytes } = db.stats();
    assert.ok(baseCacheBytes <= maxBaseCacheBytes, `${baseCacheBytes} bytes cached`);
    most = Math.max(most, baseCacheBytes);
  }
  assert.ok(most > maxBaseCacheBytes / 2, `the cache was used: at most ${most} bytes`);
});
