// Reads the mirror's objects for a push, fast: an object stored whole in a pack is found through
// the pack's index and its entry (header + zlib stream) is copied into the outgoing pack as it
// is, with no inflate and no deflate, as git does when it reuses pack data; neighbouring
// entries are read together. Loose objects are inflated and deflated again; objects stored as
// deltas (packs from a fetch) are read through isomorphic-git, which resolves deltas, and
// deflated. Each copied entry's CRC-32 is checked against the index, so a damaged pack is
// noticed here and not sent.
import { open, readdir, readFile, stat, type FileHandle } from 'node:fs/promises';
import { GitReadError } from '../git/git-read-error.js';
import { join } from 'node:path';
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { encodePackEntryHeader } from '../git/encode-pack-entry.js';
import type { GitObjectType } from '../git/git-object.js';
import { readGitObject } from '../git/read-git-object.js';
import { readPackIndex, type PackIndex, type PackLocation } from './pack-index.js';

/** Pack type numbers of whole entries a push copies (OBJ_COMMIT, OBJ_TREE, OBJ_BLOB); gitfleet pushes no tags. */
const typeNames: Record<number, GitObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob' };
const pushedTypes: ReadonlySet<string> = new Set(['commit', 'tree', 'blob']);

/** Most bytes read at once when copying neighbouring entries. */
const maxRunBytes = 4 * 1024 * 1024;

/** Reads objects of one repository; close it when done. */
export interface ObjectReader {
  /** Returns whether the repository holds the object (in a pack's index, or loose). */
  has(oid: string): Promise<boolean>;
  /** Returns the object's type and content. */
  read(oid: string): Promise<{ type: GitObjectType; content: Buffer }>;
  /** Yields every object as one whole pack entry (header and zlib stream), packed ones first, pack by pack. */
  packEntries(oids: readonly string[]): AsyncGenerator<Buffer>;
  close(): Promise<void>;
}

const objectId = /^[0-9a-f]{40}$/;

interface Pack {
  /** Position among the repository's packs, to read them one after the other. */
  rank: number;
  file: FileHandle;
  index: PackIndex;
  path: string;
}

interface Located {
  oid: string;
  pack: Pack;
  at: PackLocation;
}

/** Opens every pack of the repository (as of now) and returns a reader over them and the loose objects. */
export async function openObjectReader(gitdir: string): Promise<ObjectReader> {
  return new MirrorObjectReader(gitdir, await openPacks(join(gitdir, 'objects', 'pack')));
}

class MirrorObjectReader implements ObjectReader {
  constructor(
    private readonly gitdir: string,
    private readonly packs: readonly Pack[],
  ) {}

  async has(oid: string): Promise<boolean> {
    // A ref file cut short by a kill holds no object id: the mirror does not hold what it names.
    if (!objectId.test(oid)) return false;
    if (this.locate(oid)) return true;
    return stat(join(this.gitdir, 'objects', oid.slice(0, 2), oid.slice(2))).then(
      () => true,
      () => false,
    );
  }

  async read(oid: string): Promise<{ type: GitObjectType; content: Buffer }> {
    const found = this.locate(oid);
    if (found) {
      const raw = await readEntries(found.pack, [found]).next();
      const header = parseEntryHeader(raw.value as Buffer);
      const type = typeNames[header.type];
      if (type) return { type, content: inflateSync((raw.value as Buffer).subarray(header.length)) };
    }
    const loose = await readLoose(this.gitdir, oid);
    if (loose) return loose;
    const other = await readGitObject({ gitdir: this.gitdir }, oid); // a delta: the object reader resolves it
    if (!pushedTypes.has(other.type))
      throw new GitReadError(
        'WrongObjectType',
        `${oid}: a ${other.type}; gitfleet pushes commits, trees and blobs`,
      );
    return { type: other.type as GitObjectType, content: Buffer.from(other.content) };
  }

  async *packEntries(oids: readonly string[]): AsyncGenerator<Buffer> {
    const located: Located[] = [];
    const elsewhere: string[] = [];
    for (const oid of oids) {
      const found = this.locate(oid);
      if (found) located.push(found);
      else elsewhere.push(oid);
    }
    for (const run of contiguousRuns(located)) {
      let i = 0;
      for await (const raw of readEntries(run[0]!.pack, run)) {
        if (typeNames[parseEntryHeader(raw).type] === undefined) elsewhere.push(run[i]!.oid);
        else yield raw;
        i++;
      }
    }
    for (const oid of elsewhere) {
      const { type, content } = await this.read(oid);
      yield Buffer.concat([encodePackEntryHeader(type, content.length), deflateSync(content)]);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.packs.map((p) => p.file.close()));
  }

  private locate(oid: string): Located | null {
    const id = Buffer.from(oid, 'hex');
    for (const pack of this.packs) {
      const at = pack.index.find(id);
      if (at) return { oid, pack, at };
    }
    return null;
  }
}

/** Groups entries that follow each other in one pack, so each group is one read. */
function contiguousRuns(located: Located[]): Located[][] {
  located.sort((a, b) => a.pack.rank - b.pack.rank || a.at.offset - b.at.offset);
  const runs: Located[][] = [];
  for (const entry of located) {
    const run = runs[runs.length - 1];
    const first = run?.[0]?.at.offset ?? 0;
    const last = run?.[run.length - 1];
    const follows = last?.pack === entry.pack && last.at.end === entry.at.offset;
    if (run && follows && entry.at.end - first <= maxRunBytes) run.push(entry);
    else runs.push([entry]);
  }
  return runs;
}

/** Reads the run of neighbouring entries at once and yields each one's bytes, CRC-checked. */
async function* readEntries(pack: Pack, run: readonly Located[]): AsyncGenerator<Buffer> {
  const start = run[0]!.at.offset;
  const bytes = Buffer.alloc(run[run.length - 1]!.at.end - start);
  const { bytesRead } = await pack.file.read(bytes, 0, bytes.length, start);
  if (bytesRead !== bytes.length)
    throw new GitReadError('CorruptObject', `${pack.path}: short read at ${start}`);
  for (const entry of run) {
    const raw = bytes.subarray(entry.at.offset - start, entry.at.end - start);
    if (crc32(raw) !== entry.at.crc32)
      throw new GitReadError(
        'CorruptObject',
        `${entry.oid}: damaged entry in ${pack.path} (CRC-32 mismatch)`,
      );
    yield raw;
  }
}

/** Type number and header length of a pack entry (type and size in a continuation-bit varint). */
function parseEntryHeader(raw: Buffer): { type: number; length: number } {
  let at = 0;
  const first = raw[at++]!;
  let byte = first;
  while (byte & 0x80) byte = raw[at++]!;
  return { type: (first >> 4) & 0x07, length: at };
}

async function openPacks(dir: string): Promise<Pack[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const packs: Pack[] = [];
  try {
    // Only packs with an index count: an index is renamed into place last (write-pack.ts, git).
    for (const name of names.filter((n) => n.endsWith('.idx')).sort()) {
      const path = join(dir, name.replace(/\.idx$/, '.pack'));
      const index = await readPackIndex(join(dir, name), (await stat(path)).size);
      packs.push({ rank: packs.length, file: await open(path, 'r'), index, path });
    }
    return packs;
  } catch (error) {
    await Promise.all(packs.map((p) => p.file.close()));
    throw error;
  }
}

async function readLoose(
  gitdir: string,
  oid: string,
): Promise<{ type: GitObjectType; content: Buffer } | null> {
  let file: Buffer;
  try {
    file = await readFile(join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2)));
  } catch {
    return null;
  }
  const data = inflateSync(file);
  const nul = data.indexOf(0);
  const [type = ''] = data.toString('latin1', 0, nul).split(' ');
  if (!pushedTypes.has(type))
    throw new GitReadError(
      'WrongObjectType',
      `${oid}: a loose ${type}; gitfleet pushes commits, trees and blobs`,
    );
  return { type: type as GitObjectType, content: data.subarray(nul + 1) };
}
