import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs, { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import git$ from 'isomorphic-git';
import { GitWriteError } from '../../../src/adapters/git/git-write-error.js';
import { defaultLooseLimit, writeObjects } from '../../../src/adapters/git/write-objects.js';
import { git, makeRepo, manifestBlobs, removeRepos } from './git-repo-fixture.js';

after(removeRepos);

const looseFile = (gitdir: string, oid: string): string =>
  join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
const packs = (gitdir: string): string[] =>
  readdirSync(join(gitdir, 'objects', 'pack')).filter((f) => f.endsWith('.idx'));

test('A handful of objects is written loose, read-only, and git and isomorphic-git read them.', async () => {
  const repo = makeRepo({ bare: true });
  const blobs = manifestBlobs(defaultLooseLimit);
  assert.deepEqual(await writeObjects({ gitdir: repo.gitdir, objects: blobs }), {
    packFile: null,
    count: blobs.length,
  });
  assert.deepEqual(packs(repo.gitdir), []);
  for (const blob of blobs) {
    assert.equal(statSync(looseFile(repo.gitdir, blob.oid)).mode & 0o777, 0o444);
    assert.equal(git(repo, ['cat-file', '-t', blob.oid]), 'blob');
    const read = await git$.readBlob({ fs, gitdir: repo.gitdir, oid: blob.oid });
    assert.deepEqual(Buffer.from(read.blob), Buffer.from(blob.content));
  }
  git(repo, ['fsck', '--strict']);
});

test('One object more than the loose limit goes into a pack instead.', async () => {
  const repo = makeRepo({ bare: true });
  const blobs = manifestBlobs(defaultLooseLimit + 1);
  const written = await writeObjects({ gitdir: repo.gitdir, objects: blobs });
  assert.equal(written.count, blobs.length);
  assert.equal(packs(repo.gitdir).length, 1);
  assert.equal(existsSync(looseFile(repo.gitdir, blobs[0]!.oid)), false);
});

test('Writing loose objects that are already there writes nothing and counts nothing.', async () => {
  const repo = makeRepo({ bare: true });
  const blobs = manifestBlobs(3);
  await writeObjects({ gitdir: repo.gitdir, objects: blobs });
  assert.deepEqual(await writeObjects({ gitdir: repo.gitdir, objects: blobs }), { packFile: null, count: 0 });
});

test('A loose object whose given id is not the hash of its content is refused before its file is made.', async () => {
  const repo = makeRepo({ bare: true });
  const [blob] = manifestBlobs(1);
  const forged = { ...blob!, content: Buffer.from('other\n') };
  await assert.rejects(
    writeObjects({ gitdir: repo.gitdir, objects: [forged] }),
    (e: GitWriteError) => e.code === 'ObjectIdMismatch',
  );
  assert.equal(existsSync(join(repo.gitdir, 'objects', blob!.oid.slice(0, 2))), false);
});
