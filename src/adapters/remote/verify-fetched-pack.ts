// The check a fetch passes before the mirror's tracking refs move (fetch-mirror.ts): every pack
// the fetch added has its index and a matching SHA-1 trailer (the pack is whole, not cut off
// or altered), and every object the incoming tips need is present: their commits down to
// what the tracking refs already hold, and those commits' trees and blobs (the same walk a
// push makes, list-objects-to-push.ts).
import { createHash } from 'node:crypto';
import { ProtocolError } from './protocol-error.js';
import { createReadStream, existsSync } from 'node:fs';
import { open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { listRefNames } from '../git/list-refs.js';
import { readPackedRefs, readRef } from '../git/read-ref.js';
import { listObjectsToPush } from './list-objects-to-push.js';
import { fetchTempDir, incomingRemote } from './mirror-layout.js';
import { openObjectReader } from './object-reader.js';

const packDir = (gitdir: string): string => join(gitdir, 'objects', 'pack');

/** Returns the names of the mirror's pack files. */
export async function listPacks(gitdir: string): Promise<Set<string>> {
  const names = await readdir(packDir(gitdir)).catch(() => [] as string[]);
  return new Set(names.filter((n) => n.endsWith('.pack')));
}

/** Returns the incoming refs a fetch wrote: branch (refs/heads/…) → commit. */
export async function readIncomingRefs(gitdir: string): Promise<Map<string, string>> {
  const prefix = `refs/remotes/${incomingRemote}/`;
  // packed-refs read once: a ref that is not loose would read it again each time.
  const packed = await readPackedRefs(gitdir);
  const refs = new Map<string, string>();
  for (const ref of await listRefNames(gitdir, prefix, packed)) {
    if (ref === `${prefix}HEAD`) continue;
    const oid = await readRef(gitdir, ref, packed);
    if (oid !== null) refs.set(`refs/heads/${ref.slice(prefix.length)}`, oid);
  }
  return refs;
}

/** Throws (code DamagedPack) unless the new packs are whole and the incoming tips' objects all present. */
export async function verifyFetchedPack(opts: {
  gitdir: string;
  before: ReadonlySet<string>;
  trackingRef: (branch: string) => string;
}): Promise<void> {
  for (const name of await listPacks(opts.gitdir)) {
    if (!opts.before.has(name)) await checkPackFile(join(packDir(opts.gitdir), name));
  }
  const incoming = await readIncomingRefs(opts.gitdir);
  const packed = await readPackedRefs(opts.gitdir);
  const held = new Set<string>();
  const tips: string[] = [];
  for (const [branch, oid] of incoming) {
    const current = await readRef(opts.gitdir, opts.trackingRef(branch), packed);
    if (current !== null) held.add(current);
    if (current !== oid) tips.push(oid);
  }
  const reader = await openObjectReader(opts.gitdir);
  try {
    const needed = await listObjectsToPush({ reader, tips, remoteHas: held }).catch((error: unknown) => {
      throw damaged(`${(error as Error).message} (an object the fetched commits need)`);
    });
    for (const oid of needed)
      if (!(await reader.has(oid))) throw damaged(`${oid}: missing, though the fetched commits need it`);
  } finally {
    await reader.close();
  }
}

/** Deletes the packs (and their indexes) added since `before`. */
export async function discardNewPacks(gitdir: string, before: ReadonlySet<string>): Promise<void> {
  for (const name of await listPacks(gitdir)) {
    if (before.has(name)) continue;
    const base = join(packDir(gitdir), name.replace(/\.pack$/, ''));
    await rm(`${base}.idx`, { force: true });
    await rm(`${base}.pack`, { force: true });
  }
}

/** Removes the incoming refs, the fetch's temp files and any pack left without its index (a fetch killed midway). */
export async function clearIncoming(gitdir: string): Promise<void> {
  await rm(join(gitdir, 'refs', 'remotes', incomingRemote), { recursive: true, force: true });
  await rm(join(gitdir, fetchTempDir), { recursive: true, force: true });
  const names = await readdir(packDir(gitdir)).catch(() => [] as string[]);
  for (const name of names) {
    if (name.endsWith('.pack') && !names.includes(name.replace(/\.pack$/, '.idx'))) {
      await rm(join(packDir(gitdir), name), { force: true });
    }
  }
}

/** Throws unless the pack's last 20 bytes are the SHA-1 of everything before them and it has an index. */
async function checkPackFile(path: string): Promise<void> {
  const file = await open(path, 'r');
  let size: number;
  const trailer = Buffer.alloc(20);
  try {
    size = (await file.stat()).size;
    if (size < 32) throw damaged(`${path}: ${size} bytes, too short for a pack`);
    await file.read(trailer, 0, 20, size - 20);
  } finally {
    await file.close();
  }
  const hash = createHash('sha1');
  for await (const chunk of createReadStream(path, { start: 0, end: size - 21 }))
    hash.update(chunk as Buffer);
  if (!hash.digest().equals(trailer)) throw damaged(`${path}: checksum mismatch (cut off or altered)`);
  if (!existsSync(path.replace(/\.pack$/, '.idx'))) throw damaged(`${path}: no index`);
}

function damaged(message: string): ProtocolError {
  return new ProtocolError('DamagedPack', message);
}
