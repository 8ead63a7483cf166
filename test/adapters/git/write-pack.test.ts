import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs, { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import git$ from 'isomorphic-git';
import { buildTreeFromScratch } from '../../../src/adapters/git/build-tree-from-scratch.js';
import type { GitObject } from '../../../src/adapters/git/git-object.js';
import { GitWriteError } from '../../../src/adapters/git/git-write-error.js';
import { makeCommit } from '../../../src/adapters/git/make-commit.js';
import { updateRef } from '../../../src/adapters/git/update-ref.js';
import { writePack } from '../../../src/adapters/git/write-pack.js';
import { git, makeRepo, manifestBlobs, removeRepos, type TestRepo } from './git-repo-fixture.js';

after(removeRepos);

const author = { name: 'gitfleet', email: 'hub@gitfleet.invalid', time: 1700000000, tzOffsetMinutes: 0 };

/** The objects of one branch: blobs at `<ns>/ConfigMap/<name>.yaml`, their trees and a root commit. */
function branchObjects(blobs: readonly GitObject[]) {
  const files = new Map(blobs.map((b, i) => [`ns-${i % 7}/ConfigMap/cm-${i}.yaml`, b.oid]));
  const tree = buildTreeFromScratch(files);
  const commit = makeCommit({ tree: tree.root, parents: [], author, message: 'render\n' });
  return { files, tree, commit, objects: [...blobs, ...tree.newObjects, commit] };
}

function packFiles(repo: TestRepo): string[] {
  return readdirSync(join(repo.gitdir, 'objects', 'pack')).sort();
}

/** Object count and verdict of `git verify-pack -v`. */
function verifyPack(repo: TestRepo, packFile: string): { objects: number; ok: boolean } {
  const out = git(repo, ['verify-pack', '-v', packFile.replace(/\.pack$/, '.idx')]);
  return {
    objects: Number(/^non delta: (\d+) objects?$/m.exec(out)?.[1]),
    ok: out.endsWith(`${packFile}: ok`),
  };
}

for (const bare of [true, false]) {
  test(`1,200 blobs, their trees and a commit written as one pack into a ${bare ? 'bare' : 'non-bare'} repository read back the same through git and isomorphic-git.`, async () => {
    const repo = makeRepo({ bare });
    const blobs = manifestBlobs(1200);
    const { files, tree, commit, objects } = branchObjects(blobs);
    const written = await writePack({ gitdir: repo.gitdir, objects });
    assert.equal(written.count, objects.length);
    assert.deepEqual(verifyPack(repo, written.packFile!), { objects: objects.length, ok: true });
    await updateRef({ gitdir: repo.gitdir, ref: 'refs/heads/main', newOid: commit.oid, expectedOld: null });
    git(repo, ['fsck', '--strict', '--no-dangling']);
    assert.equal(git(repo, ['log', '--format=%H %s', 'main']), `${commit.oid} render`);
    const listed = git(repo, ['ls-tree', '-r', 'main']).split('\n');
    assert.deepEqual(
      new Map(listed.map((l) => [l.split('\t')[1]!, l.split('\t')[0]!])),
      new Map([...files].map(([path, oid]) => [path, `100644 blob ${oid}`])),
    );
    assert.equal(
      git(repo, ['cat-file', 'blob', blobs[1199]!.oid]),
      Buffer.from(blobs[1199]!.content).toString().trimEnd(),
    );
    const cache = {};
    const read = await git$.readCommit({ fs, gitdir: repo.gitdir, oid: commit.oid, cache });
    assert.equal(read.commit.tree, tree.root);
    const root = await git$.readTree({ fs, gitdir: repo.gitdir, oid: tree.root, cache });
    assert.deepEqual(
      root.tree.map((e) => e.path),
      ['ns-0', 'ns-1', 'ns-2', 'ns-3', 'ns-4', 'ns-5', 'ns-6'],
    );
    for (const blob of blobs) {
      const { blob: content } = await git$.readBlob({ fs, gitdir: repo.gitdir, oid: blob.oid, cache });
      assert.deepEqual(Buffer.from(content), Buffer.from(blob.content));
    }
  });
}

test('The same objects packed on worker threads and on the calling thread give the same pack, byte for byte.', async () => {
  const objects = branchObjects(manifestBlobs(2500)).objects;
  const [a, b] = [makeRepo({ bare: true }), makeRepo({ bare: true })];
  const inWorkers = await writePack({ gitdir: a.gitdir, objects, threads: 2 });
  const onCaller = await writePack({ gitdir: b.gitdir, objects, threads: 0 });
  assert.equal(basename(inWorkers.packFile!), basename(onCaller.packFile!));
  assert.deepEqual(verifyPack(a, inWorkers.packFile!), { objects: objects.length, ok: true });
});

test('Objects given twice are written once, and objects the repository has are skipped.', async () => {
  const repo = makeRepo({ bare: true });
  const [x, y, z] = manifestBlobs(3);
  const written = await writePack({
    gitdir: repo.gitdir,
    objects: [x!, y!, x!, { type: 'blob', content: y!.content }, z!],
    exists: (oid) => oid === z!.oid,
  });
  assert.equal(written.count, 2);
  assert.deepEqual(verifyPack(repo, written.packFile!), { objects: 2, ok: true });
  assert.equal(git(repo, ['cat-file', '-t', y!.oid]), 'blob');
});

test('When every object is already there, no pack is written.', async () => {
  const repo = makeRepo({ bare: true });
  const blobs = manifestBlobs(4);
  assert.deepEqual(await writePack({ gitdir: repo.gitdir, objects: blobs, exists: () => true }), {
    packFile: null,
    count: 0,
  });
  assert.deepEqual(packFiles(repo), []);
});

for (const threads of [0, 2]) {
  test(`An object whose given id is not the hash of its content is refused and leaves no file behind (${threads} threads).`, async () => {
    const repo = makeRepo({ bare: true });
    const blobs = manifestBlobs(threads === 0 ? 10 : 2100);
    const forged = { ...blobs[5]!, content: Buffer.from('tampered\n') };
    const objects = [...blobs.slice(0, 5), forged, ...blobs.slice(6)];
    await assert.rejects(writePack({ gitdir: repo.gitdir, objects, threads }), (e: GitWriteError) => {
      assert.equal(e.code, 'ObjectIdMismatch');
      assert.ok(e.message.startsWith(`${blobs[5]!.oid}: `));
      return true;
    });
    assert.deepEqual(packFiles(repo), []);
  });
}

test("Temp files a crashed writer left are ignored by git and removed by the next write; a live writer's are kept.", async () => {
  const repo = makeRepo({ bare: true });
  const packDir = join(repo.gitdir, 'objects', 'pack');
  const deadPid = spawnSync('true').pid;
  const crashed = `tmp_pack_gitfleet_${deadPid}_0a1b2c`;
  const live = `tmp_idx_gitfleet_${process.pid}_3d4e5f`;
  writeFileSync(join(packDir, crashed), 'PACK half written');
  writeFileSync(join(packDir, live), 'in progress');
  git(repo, ['fsck', '--strict']);
  const written = await writePack({ gitdir: repo.gitdir, objects: manifestBlobs(20) });
  assert.equal(existsSync(join(packDir, crashed)), false);
  assert.equal(existsSync(join(packDir, live)), true);
  assert.deepEqual(verifyPack(repo, written.packFile!), { objects: 20, ok: true });
});

test('Packs of two passes coexist, and after git gc the repository still passes fsck with the same trees.', async () => {
  const repo = makeRepo({ bare: false });
  const first = branchObjects(manifestBlobs(1000));
  await writePack({ gitdir: repo.gitdir, objects: first.objects });
  await updateRef({
    gitdir: repo.gitdir,
    ref: 'refs/heads/main',
    newOid: first.commit.oid,
    expectedOld: null,
  });
  const changed = manifestBlobs(1000, '-v2').slice(0, 10);
  const files = new Map(first.files);
  changed.forEach((b, i) => files.set(`ns-${i % 7}/ConfigMap/cm-${i}.yaml`, b.oid));
  const tree = buildTreeFromScratch(files);
  const commit = makeCommit({ tree: tree.root, parents: [first.commit.oid], author, message: 'change ten' });
  await writePack({
    gitdir: repo.gitdir,
    objects: [...changed, ...tree.newObjects, commit],
    exists: (oid) => first.tree.newObjects.some((t) => t.oid === oid),
  });
  await updateRef({
    gitdir: repo.gitdir,
    ref: 'refs/heads/main',
    newOid: commit.oid,
    expectedOld: first.commit.oid,
  });
  assert.equal(packFiles(repo).filter((f) => f.endsWith('.idx')).length, 2);
  git(repo, ['fsck', '--strict', '--no-dangling']);
  const before = git(repo, ['ls-tree', '-r', 'main']);
  assert.equal(git(repo, ['rev-list', '--count', 'main']), '2');
  git(repo, ['gc', '--quiet', '--prune=now']);
  assert.equal(packFiles(repo).filter((f) => f.endsWith('.idx')).length, 1);
  git(repo, ['fsck', '--strict', '--no-dangling']);
  assert.equal(git(repo, ['ls-tree', '-r', 'main']), before);
  const read = await git$.readCommit({ fs, gitdir: repo.gitdir, oid: commit.oid });
  assert.deepEqual(read.commit.parent, [first.commit.oid]);
});
