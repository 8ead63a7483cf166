import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync, openSync, readSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { writeObjects } from '../../../src/adapters/git/write-objects.js';
import { toGitObject } from '../../../src/adapters/git/hash-object.js';
import { openObjectReader } from '../../../src/adapters/remote/object-reader.js';
import { streamPack } from '../../../src/adapters/remote/stream-pack.js';
import { git, gitSync, removeTempDirs, tempDir } from '../../git-server/git-cli.js';

after(removeTempDirs);

/** A repository whose objects are stored three ways: in git's delta-compressed pack, in gitfleet's pack, and loose. */
async function mixedRepository(): Promise<{
  gitdir: string;
  deltified: string[];
  ours: string[];
  loose: string[];
}> {
  const dir = tempDir('objects');
  await git(dir, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  const text = Array.from({ length: 200 }, (_, i) => `line ${i} of a manifest long enough to deltify\n`).join(
    '',
  );
  for (let i = 0; i < 4; i++) {
    writeFileSync(join(dir, 'big.txt'), `${text}version ${i}\n`);
    await git(dir, ['add', '.']);
    await git(dir, ['commit', '-q', '-m', `version ${i}`]);
  }
  await git(dir, ['repack', '-a', '-d', '-f', '-q']);
  const gitdir = join(dir, '.git');
  const verify = await git(dir, ['verify-pack', '-v', ...packIdx(gitdir)]);
  const deltified = verify
    .split('\n')
    .filter((l) => /^[0-9a-f]{40} blob +\d+ \d+ \d+ \d+ [0-9a-f]{40}$/.test(l))
    .map((l) => l.slice(0, 40));
  const packed = Array.from({ length: 40 }, (_, i) => toGitObject('blob', Buffer.from(`ours ${i}\n`)));
  await writeObjects({ gitdir, objects: packed, looseLimit: 0 });
  const loose = [
    toGitObject('blob', Buffer.from('loose one\n')),
    toGitObject('blob', Buffer.from('loose two\n')),
  ];
  await writeObjects({ gitdir, objects: loose });
  return { gitdir, deltified, ours: packed.map((o) => o.oid), loose: loose.map((o) => o.oid) };
}

function packIdx(gitdir: string): string[] {
  const dir = join(gitdir, 'objects', 'pack');
  return readdirSync(dir)
    .filter((n) => n.endsWith('.idx'))
    .map((n) => join(dir, n));
}

test('Objects read back equal what git reads, whether stored as deltas, whole in a pack, or loose.', async () => {
  const repo = await mixedRepository();
  assert.ok(repo.deltified.length > 0, 'git stored some blobs as deltas');
  const reader = await openObjectReader(repo.gitdir);
  try {
    for (const oid of [...repo.deltified, ...repo.ours.slice(0, 5), ...repo.loose]) {
      const { type, content } = await reader.read(oid);
      assert.equal(type, 'blob');
      assert.equal(
        content.toString(),
        await git(repo.gitdir, ['cat-file', 'blob', oid]).then((s) => s + '\n'),
      );
    }
  } finally {
    await reader.close();
  }
});

test('A pack streamed from every kind of storage is indexed and verified by git, and holds exactly the objects asked for.', async () => {
  const repo = await mixedRepository();
  const wanted = [...repo.deltified, ...repo.ours, ...repo.loose];
  const reader = await openObjectReader(repo.gitdir);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of streamPack(reader, wanted)) chunks.push(chunk);
  } finally {
    await reader.close();
  }
  const target = tempDir('target');
  gitSync(target, ['init', '-q', '--bare', '.']);
  const packPath = join(target, 'incoming.pack');
  writeFileSync(packPath, Buffer.concat(chunks));
  await git(target, ['index-pack', '--strict', packPath]);
  const listed = (await git(target, ['verify-pack', '-v', packPath.replace(/\.pack$/, '.idx')]))
    .split('\n')
    .filter((l) => /^[0-9a-f]{40} /.test(l))
    .map((l) => l.slice(0, 40))
    .sort();
  assert.deepEqual(listed, [...wanted].sort());
});

test('A damaged entry in a pack is refused rather than sent.', async () => {
  const repo = await mixedRepository();
  let ourPack = '';
  for (const idx of packIdx(repo.gitdir)) {
    if ((await git(repo.gitdir, ['verify-pack', '-v', idx])).includes(repo.ours[0]!))
      ourPack = idx.replace(/\.idx$/, '.pack');
  }
  assert.notEqual(ourPack, '');
  // Flip a byte inside the first entry's zlib stream (after the 12-byte header and the entry header).
  const fd = openSync(ourPack, 'r+');
  const byte = Buffer.alloc(1);
  readSync(fd, byte, 0, 1, 16);
  writeSync(fd, Buffer.from([byte[0]! ^ 0xff]), 0, 1, 16);
  closeSync(fd);
  const reader = await openObjectReader(repo.gitdir);
  try {
    await assert.rejects(async () => {
      for await (const _ of streamPack(reader, repo.ours)) void _;
    }, /CRC-32 mismatch/);
  } finally {
    await reader.close();
  }
});
