// zlib's output buffers sized to the object (zlib-chunk.ts): the deflate bound holds for data
// that does not compress at every window the deflater picks, what is deflated that way inflates
// back, and a loose object that inflates to far more than the guess still reads whole.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { deflateTask, splitByLengths, toDeflateTask } from '../../../src/adapters/git/deflate-batch.js';
import { readLooseObject } from '../../../src/adapters/git/loose-object.js';
import { deflateChunk, inflateChunk, inflateChunkFromStored } from '../../../src/adapters/git/zlib-chunk.js';
import { git, makeRepo, removeRepos } from './git-repo-fixture.js';

after(removeRepos);

const sizes = [0, 1, 63, 64, 200, 511, 4096, 16_384, 70_000, 300_000];

test('no deflated stream is longer than its chunk, at any window and level the deflater uses', () => {
  for (const size of sizes) {
    const data = randomBytes(size);
    for (const windowBits of [9, 12, 15]) {
      for (const level of [1, 6, 9]) {
        const opts = { level, windowBits, memLevel: Math.max(1, windowBits - 7) };
        const out = deflateSync(data, opts);
        assert.ok(out.length <= deflateChunk(size), `${size} bytes, window ${windowBits}, level ${level}`);
        // In one chunk: the result is a view of a buffer of that size (below 4 KiB, of Node's
        // shared pool), never of zlib's 16 KiB default.
        const chunk = deflateChunk(size);
        const sized = deflateSync(data, { ...opts, chunkSize: chunk });
        assert.deepEqual(sized, out);
        if (chunk >= 4096 && chunk < 1 << 20) assert.equal(sized.buffer.byteLength, chunk);
      }
    }
  }
});

test('a deflate batch gives streams that inflate to the objects, each holding about its own size', () => {
  const objects = sizes.map((size, i) => ({
    type: 'blob' as const,
    content: i % 2 ? randomBytes(size) : Buffer.alloc(size, 'gitfleet '),
  }));
  const result = deflateTask(toDeflateTask(objects));
  const parts = splitByLengths(result.data, result.lengths);
  parts.forEach((part, i) => assert.deepEqual(inflateSync(part), objects[i]!.content, `object ${i}`));
  assert.equal(result.oids.length, objects.length);
});

test("inflate chunks: the object in one, within zlib's 64 bytes to 1 MiB", () => {
  assert.equal(inflateChunk(0), 64);
  assert.equal(inflateChunk(1000), 1001);
  assert.equal(inflateChunk(5 << 20), 1 << 20);
  assert.equal(inflateChunkFromStored(10), 64);
  assert.equal(inflateChunkFromStored(1000), 4000);
  assert.equal(inflateChunkFromStored(1 << 20), 1 << 20);
});

test('a loose object that inflates to many chunks of the guess reads whole', () => {
  const repo = makeRepo({ bare: true });
  // 3 MiB of one byte: git stores it in a few KiB, far below what it inflates to.
  const content = Buffer.alloc(3 << 20, 'a');
  const oid = git(repo, ['hash-object', '-w', '--stdin'], content).trim();
  const read = readLooseObject(repo.gitdir, oid);
  assert.equal(read?.type, 'blob');
  assert.equal(read?.content.length, content.length);
  assert.ok(read?.content.equals(content));
  const small = git(repo, ['hash-object', '-w', '--stdin'], 'kind: ConfigMap\n').trim();
  assert.equal(readLooseObject(repo.gitdir, small)?.content.toString(), 'kind: ConfigMap\n');
});
