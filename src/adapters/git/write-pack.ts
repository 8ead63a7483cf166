// Writes many objects as one packfile (v2) with its index (v2), the fast path for bulk writes:
// one file instead of one per object, deflated on several cores. Objects are stored whole,
// without deltas; `git gc` or `git repack` may delta-compress them later.
//
// Crash safety: the pack and its index are written to temp files, fsynced, then renamed,
// the index last, because readers (git and isomorphic-git alike) discover packs through their
// `.idx`: a reader never sees a pack it cannot index, and a crash leaves only temp files,
// which git ignores and the next write (or `git prune`) removes.
import { existsSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { defaultDeflateThreads, deflateObjects } from './deflate-pool.js';
import { encodePackIndex, type PackIndexEntry } from './encode-pack-index.js';
import { encodePackEntryHeader, encodePackHeader } from './encode-pack-entry.js';
import type { GitObject, GitObjectInput } from './git-object.js';
import { HashingFileWriter } from './hashing-file-writer.js';
import { assertSameOid, selectNewObjects } from './select-new-objects.js';
import { objectFileMode, syncPath, writeNewFile } from './sync-files.js';
import { removeStaleTempFiles, tempFileName } from './temp-files.js';

export interface WritePackOptions {
  gitdir: string;
  objects: readonly GitObjectInput[];
  /** Says which ids the repository already holds; those are not written again. */
  exists?: (oid: string) => boolean;
  /** Deflate worker threads; 0 deflates on the calling thread. Default: the cores, at most 4. */
  threads?: number;
  /** Fsync the pack, its index and the pack directory (default true). */
  fsync?: boolean;
}

/** What a write stored: the pack's path (null when every object was already there) and its object count. */
export interface WriteObjectsResult {
  packFile: string | null;
  count: number;
}

/** Writes the new objects as one pack with its index and returns the pack's path and object count. */
export async function writePack(opts: WritePackOptions): Promise<WriteObjectsResult> {
  const objects = selectNewObjects(opts.objects, opts.exists);
  if (objects.length === 0) return { packFile: null, count: 0 };
  const sync = opts.fsync ?? true;
  const packDir = join(opts.gitdir, 'objects', 'pack');
  await mkdir(packDir, { recursive: true });
  await removeStaleTempFiles(packDir, Date.now());
  const tmpPack = join(packDir, tempFileName('pack'));
  const tmpIdx = join(packDir, tempFileName('idx'));
  try {
    const threads = opts.threads ?? defaultDeflateThreads();
    const { checksum, entries } = await writePackData({ path: tmpPack, objects, threads });
    await writeNewFile(tmpIdx, encodePackIndex(entries, checksum), false);
    // Both files at once: the file system can commit them together.
    if (sync) await Promise.all([syncPath(tmpPack), syncPath(tmpIdx)]);
    const base = join(packDir, `pack-${checksum.toString('hex')}`);
    if (existsSync(`${base}.idx`)) {
      // The same objects in the same order were packed before: that pack is this pack.
      await Promise.all([rm(tmpPack), rm(tmpIdx)]);
    } else {
      await rename(tmpPack, `${base}.pack`);
      await rename(tmpIdx, `${base}.idx`);
      if (sync) await syncPath(packDir);
    }
    return { packFile: `${base}.pack`, count: objects.length };
  } catch (error) {
    await Promise.all([rm(tmpPack, { force: true }), rm(tmpIdx, { force: true })]);
    throw error;
  }
}

/** Streams the pack to `path` and returns its trailing checksum and where each object sits. */
async function writePackData(opts: {
  path: string;
  objects: readonly GitObject[];
  threads: number;
}): Promise<{ checksum: Buffer; entries: PackIndexEntry[] }> {
  const file = await open(opts.path, 'wx', objectFileMode);
  try {
    const writer = new HashingFileWriter(file);
    await writer.write(encodePackHeader(opts.objects.length));
    const entries: PackIndexEntry[] = [];
    for await (const batch of deflateObjects(opts.objects, opts.threads)) {
      for (const deflated of batch) {
        const object = opts.objects[entries.length]!;
        assertSameOid(object.oid, deflated.oid, object.type);
        const header = encodePackEntryHeader(object.type, object.content.length);
        const crc = crc32(deflated.deflated, crc32(header));
        entries.push({ oid: object.oid, crc32: crc, offset: writer.position });
        await writer.write(header);
        await writer.write(deflated.deflated);
      }
    }
    const checksum = await writer.finish();
    return { checksum, entries };
  } finally {
    await file.close();
  }
}
