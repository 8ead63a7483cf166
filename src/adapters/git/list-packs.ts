// What the object directory holds, read cheaply: the packs with their object counts (from the
// fanout of each `.idx`, without loading it) and the loose objects. Maintenance decides from
// this whether a repack is due, and the repack reads it to know what to fold.
import { existsSync } from 'node:fs';
import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PackSize } from './plan-pack-rollup.js';

/** A pack with its index in objects/pack: `name` is `pack-<checksum>` (no suffix). */
export interface StoredPack extends PackSize {
  /** Set when a `.keep` file says the pack must not be rewritten (git's convention). */
  keep: boolean;
}

const packIndexName = /^(pack-[0-9a-f]{40,64})\.idx$/;
const hexPair = /^[0-9a-f]{2}$/;
const looseName = /^[0-9a-f]{38}$/;

/** Returns the packs that have both their `.idx` and `.pack`, with their object counts. */
export async function listPacks(gitdir: string): Promise<StoredPack[]> {
  const dir = join(gitdir, 'objects', 'pack');
  const names = await readdir(dir).catch(() => [] as string[]);
  const present = new Set(names);
  const packs: StoredPack[] = [];
  for (const file of names) {
    const name = packIndexName.exec(file)?.[1];
    if (name === undefined || !present.has(`${name}.pack`)) continue;
    const objects = await readIndexCount(join(dir, file));
    if (objects === null) continue;
    packs.push({ name, objects, keep: present.has(`${name}.keep`) });
  }
  return packs;
}

/** Returns the ids of the loose objects. */
export async function listLooseObjects(gitdir: string): Promise<string[]> {
  const objects = join(gitdir, 'objects');
  const dirs = (await readdir(objects).catch(() => [] as string[])).filter((d) => hexPair.test(d));
  const oids: string[] = [];
  for (const d of dirs) {
    for (const name of await readdir(join(objects, d)).catch(() => [] as string[])) {
      if (looseName.test(name)) oids.push(d + name);
    }
  }
  return oids;
}

/**
 * Returns about how many loose objects there are, from one of the 256 fan-out directories, as
 * `git gc --auto` estimates them (objects/17 times 256): a check cheap enough to run after every pass.
 */
export async function estimateLooseObjects(gitdir: string): Promise<number> {
  const dir = join(gitdir, 'objects', '17');
  if (!existsSync(dir)) return 0;
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => looseName.test(n)).length * 256;
}

/** Returns the object count of a version 2 index (the last fanout entry), or null when it is not one. */
async function readIndexCount(path: string): Promise<number | null> {
  const file = await open(path, 'r').catch(() => null);
  if (file === null) return null; // removed since the listing
  try {
    const head = Buffer.alloc(8 + 256 * 4);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    if (bytesRead < head.length || head.readUInt32BE(0) !== 0xff744f63 || head.readUInt32BE(4) !== 2)
      return null;
    return head.readUInt32BE(8 + 255 * 4);
  } finally {
    await file.close();
  }
}

/** Returns the ids held by a version 2 index, in its (sorted) order. */
export async function readIndexOids(path: string): Promise<string[]> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(8 + 256 * 4);
    await file.read(head, 0, head.length, 0);
    const count = head.readUInt32BE(8 + 255 * 4);
    const ids = Buffer.alloc(count * 20);
    await file.read(ids, 0, ids.length, head.length);
    const oids: string[] = new Array<string>(count);
    for (let i = 0; i < count; i++) oids[i] = ids.toString('hex', i * 20, i * 20 + 20);
    return oids;
  } finally {
    await file.close();
  }
}

/** An object's place in its pack, from the index. */
export interface IndexedEntry {
  oid: string;
  offset: number;
}

/** Returns a version 2 index's entries (64-bit offsets included), in the order of the ids. */
export async function readIndexEntries(path: string): Promise<IndexedEntry[]> {
  const idx = await readFile(path);
  const count = idx.readUInt32BE(8 + 255 * 4);
  const ids = 8 + 1024;
  const offsets = ids + count * 24;
  const large = offsets + count * 4;
  const entries: IndexedEntry[] = new Array<IndexedEntry>(count);
  for (let i = 0; i < count; i++) {
    const small = idx.readUInt32BE(offsets + i * 4);
    const offset = small & 0x80000000 ? Number(idx.readBigUInt64BE(large + (small & 0x7fffffff) * 8)) : small;
    entries[i] = { oid: idx.toString('hex', ids + i * 20, ids + i * 20 + 20), offset };
  }
  return entries;
}
