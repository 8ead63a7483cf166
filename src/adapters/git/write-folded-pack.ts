// The pack a repack writes (repack-packs.ts): the folded objects in temp files, renamed in once whole.
import { existsSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { deflateObjects } from './deflate-pool.js';
import { encodePackIndex, type PackIndexEntry } from './encode-pack-index.js';
import { encodePackEntryHeader, encodePackHeader } from './encode-pack-entry.js';
import type { GitObject } from './git-object.js';
import { GitWriteError } from './git-write-error.js';
import { HashingFileWriter } from './hashing-file-writer.js';
import { readIndexEntries } from './list-packs.js';
import { assertSameOid } from './select-new-objects.js';
import { objectFileMode, syncPath, writeNewFile } from './sync-files.js';
import { tempFileName } from './temp-files.js';

/** Objects read and deflated at a time: memory stays bounded whatever the packs' size. */
const batchSize = 2000;
/** Bytes of a pack read at a time while copying its entries. */
const windowBytes = 4 * 1024 * 1024;

/** The points of writing a folded pack, for tests that stop a repack there (kill -9). */
export type FoldStep = 'packStarted' | 'packWritten' | 'packRenamed' | 'packIndexed';

/** What to fold, and where. */
export interface FoldOptions {
  packDir: string;
  packs: readonly string[];
  loose: readonly string[];
  /** How many distinct objects the packs and the loose objects hold. */
  count: number;
  read: (oid: string) => Promise<GitObject>;
  threads: number;
  sync: boolean;
  step: (step: FoldStep) => Promise<void>;
  /** Records the new pack's name before it is renamed in. */
  journal: (name: string) => Promise<void>;
}

/**
 * Writes the folded objects as a pack in temp files, then renames the .pack and the .idx; returns
 * its name. A whole object (not a delta) is copied byte for byte from its pack, as `git repack`
 * reuses packed data: nothing to inflate or deflate, so folding the first big pack costs about
 * a file copy. Deltas (in packs fetched from a remote) and loose objects are read through
 * gitfleet's object reader and deflated again.
 */
export async function writeFoldedPack(opts: FoldOptions): Promise<string> {
  const tmpPack = join(opts.packDir, tempFileName('pack'));
  const tmpIdx = join(opts.packDir, tempFileName('idx'));
  try {
    const file = await open(tmpPack, 'wx', objectFileMode);
    let written: { entries: PackIndexEntry[]; checksum: Buffer };
    try {
      written = await writePackEntries(opts, new HashingFileWriter(file));
      if (opts.sync) await file.sync();
    } finally {
      await file.close();
    }
    await writeNewFile(tmpIdx, encodePackIndex(written.entries, written.checksum), opts.sync);
    await opts.step('packWritten');
    const name = `pack-${written.checksum.toString('hex')}`;
    const base = join(opts.packDir, name);
    await opts.journal(name);
    if (existsSync(`${base}.idx`)) {
      await Promise.all([rm(tmpPack), rm(tmpIdx)]);
      return name;
    }
    // The .pack first: readers find packs through their .idx, so a pack is never seen without its data.
    await rename(tmpPack, `${base}.pack`);
    await opts.step('packRenamed');
    await rename(tmpIdx, `${base}.idx`);
    if (opts.sync) await syncPath(opts.packDir);
    await opts.step('packIndexed');
    return name;
  } catch (error) {
    await Promise.all([rm(tmpPack, { force: true }), rm(tmpIdx, { force: true })]);
    throw error;
  }
}

/** Writes the pack's header and every object once: whole entries copied, the rest deflated again. */
async function writePackEntries(
  opts: FoldOptions,
  writer: HashingFileWriter,
): Promise<{ entries: PackIndexEntry[]; checksum: Buffer }> {
  const entries: PackIndexEntry[] = [];
  const written = new Set<string>();
  await writer.write(encodePackHeader(opts.count));
  await opts.step('packStarted');
  const append = async (oid: string, bytes: Uint8Array): Promise<void> => {
    entries.push({ oid, crc32: crc32(bytes), offset: writer.position });
    written.add(oid);
    await writer.write(bytes);
  };
  const toResolve = new Set<string>(opts.loose);
  for (const name of opts.packs) {
    for await (const entry of packEntries(join(opts.packDir, name))) {
      if (written.has(entry.oid)) continue;
      if (entry.whole) await append(entry.oid, entry.bytes);
      else toResolve.add(entry.oid);
    }
  }
  const rest = [...toResolve].filter((oid) => !written.has(oid));
  for (let at = 0; at < rest.length; at += batchSize) {
    const objects: GitObject[] = [];
    for (const oid of rest.slice(at, at + batchSize)) objects.push(await opts.read(oid));
    let i = 0;
    for await (const batch of deflateObjects(objects, opts.threads)) {
      for (const deflated of batch) {
        const object = objects[i++]!;
        assertSameOid(object.oid, deflated.oid, object.type);
        const header = encodePackEntryHeader(object.type, object.content.length);
        await append(object.oid, Buffer.concat([header, deflated.deflated]));
      }
    }
  }
  if (written.size !== opts.count) {
    throw new GitWriteError(
      'CorruptObject',
      `${opts.packDir}: the packs to fold list ${opts.count} objects but ${written.size} were found; nothing was changed`,
    );
  }
  return { entries, checksum: await writer.finish() };
}

/** A pack's entries in file order: the raw bytes of whole objects (pack types 1-4), or only the id of a delta. */
async function* packEntries(
  base: string,
): AsyncGenerator<{ oid: string; whole: true; bytes: Uint8Array } | { oid: string; whole: false }> {
  const entries = (await readIndexEntries(`${base}.idx`)).sort((a, b) => a.offset - b.offset);
  const file = await open(`${base}.pack`, 'r');
  try {
    const end = (await file.stat()).size - 20; // the trailing checksum
    let window = { start: 0, bytes: Buffer.alloc(0) };
    for (let i = 0; i < entries.length; i++) {
      const from = entries[i]!.offset;
      const to = i + 1 < entries.length ? entries[i + 1]!.offset : end;
      if (from < window.start || to > window.start + window.bytes.length) {
        // A fresh buffer each time: the writer keeps the slices it was given until it flushes.
        const bytes = Buffer.alloc(Math.max(windowBytes, to - from));
        const { bytesRead } = await file.read(bytes, 0, bytes.length, from);
        window = { start: from, bytes: bytes.subarray(0, bytesRead) };
        if (to - from > bytesRead)
          throw new GitWriteError('CorruptObject', `${base}.pack: truncated at ${from}`);
      }
      const bytes = window.bytes.subarray(from - window.start, to - window.start);
      const type = (bytes[0]! >> 4) & 7;
      const oid = entries[i]!.oid;
      yield type >= 1 && type <= 4 ? { oid, whole: true, bytes } : { oid, whole: false };
    }
  } finally {
    await file.close();
  }
}
