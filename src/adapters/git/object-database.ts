// One repository's objects as gitfleet reads them: the packs of objects/pack (each read in
// place, pack-file.ts) and the loose objects, with deltas resolved through a cache of delta
// bases bounded in bytes. Memory is the packs' indexes (about 28 bytes an object) plus that
// bound, whatever the size of the packs: a long-running hub whose rolled-up pack holds months of
// history keeps none of the pack's bytes.
//
// The listing of objects/pack is taken once and kept: a read that finds nothing lists again
// (a pack written since), and so does one whose pack vanished (a repack removed it after the
// listing); a listing drops the packs that are gone. Every object returned is checked against its
// id, so damage is CorruptObject naming the file, never a wrong object.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ByteLru } from './byte-lru.js';
import { applyDelta, DeltaError } from './delta.js';
import { GitWriteError } from './git-write-error.js';
import { isGitfleetError } from '../../core/model/gitfleet-error.js';
import { readLooseObject } from './loose-object.js';
import { PackFile } from './pack-file.js';
import { closePackHandle } from './pack-file-handles.js';

/** An object's type and content. */
export interface StoredObject {
  type: string;
  content: Buffer;
}

/** Default bound of the delta base cache (git's core.deltaBaseCacheLimit is 96 MiB). */
export const defaultBaseCacheBytes = 32 * 1024 * 1024;

/** Longer delta chains are taken for damage (git writes at most 4095 with --depth). */
const maxChain = 10_000;

const packIndexName = /^(pack-[0-9a-f]{40,64})\.idx$/;

/** Reads the objects of one git directory. */
export class ObjectDatabase {
  private packs: PackFile[] | undefined;
  private readonly bases: ByteLru<string, StoredObject>;

  constructor(
    readonly gitdir: string,
    opts: { maxBaseCacheBytes?: number } = {},
  ) {
    this.bases = new ByteLru(opts.maxBaseCacheBytes ?? defaultBaseCacheBytes, (o) => o.content.length);
  }

  /** Returns the object, or throws MissingObject, or CorruptObject naming the object, the repository and the file. */
  read(oid: string): StoredObject {
    try {
      return this.readChecked(oid);
    } catch (e) {
      if (!isGitfleetError(e, 'CorruptObject')) throw e;
      throw new GitWriteError(
        'CorruptObject',
        `object ${oid} in ${this.gitdir} is corrupt (${e.message}): run git fsck in that repository, and restore the object from a clone`,
      );
    }
  }

  private readChecked(oid: string): StoredObject {
    let found = this.attempt(oid);
    // Not found in the packs listed: a pack written since the listing may hold it.
    if (found === null) {
      this.relist();
      found = this.attempt(oid);
    }
    if (found === null) throw new GitWriteError('MissingObject', `${oid}: no such object in ${this.gitdir}`);
    const hash = hashOf(found);
    if (hash !== oid) throw new GitWriteError('CorruptObject', `its content hashes to ${hash}`);
    return found;
  }

  /** Lists objects/pack again: packs written since are seen, removed ones dropped and their files closed. */
  relist(): void {
    const before = this.packs;
    if (before === undefined) return;
    this.packs = this.listPacks();
    const now = new Set(this.packs.map((p) => p.path));
    for (const p of before) if (!now.has(p.path)) this.drop(p);
  }

  private drop(pack: PackFile): void {
    closePackHandle(pack.path);
    this.bases.deleteWhere((key) => key.startsWith(`${pack.path}:`));
  }

  /** Drops the listed packs whose files are gone (a repack removed them); returns how many. */
  forgetRemoved(): number {
    const before = this.packs ?? [];
    const kept = before.filter((p) => existsSync(p.path));
    for (const p of before) if (!kept.includes(p)) this.drop(p);
    if (this.packs !== undefined) this.packs = kept;
    return before.length - kept.length;
  }

  /** What the reader holds: packs listed, their indexes' bytes, the delta base cache's bytes. */
  stats(): { packs: number; indexBytes: number; baseCacheBytes: number; baseCacheMaxBytes: number } {
    const packs = this.packs ?? [];
    return {
      packs: packs.length,
      indexBytes: packs.reduce((n, p) => n + p.index.byteLength, 0),
      baseCacheBytes: this.bases.bytes,
      baseCacheMaxBytes: this.bases.maxBytes,
    };
  }

  /** Returns the object from the packs or a loose file, or null; a vanished pack is relisted once. */
  private attempt(oid: string): StoredObject | null {
    try {
      return this.lookup(oid);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      this.relist();
      return this.lookup(oid);
    }
  }

  private lookup(oid: string): StoredObject | null {
    const at = this.locate(oid);
    if (at !== null) return this.resolve(at.pack, at.offset);
    return readLooseObject(this.gitdir, oid);
  }

  private locate(oid: string, first?: PackFile): { pack: PackFile; offset: number } | null {
    if (first !== undefined) {
      const offset = first.find(oid);
      if (offset >= 0) return { pack: first, offset };
    }
    for (const pack of this.listed()) {
      const offset = pack === first ? -1 : pack.find(oid);
      if (offset >= 0) return { pack, offset };
    }
    return null;
  }

  /** Returns the object at the offset, resolving its delta chain from the nearest cached base. */
  private resolve(pack: PackFile, offset: number): StoredObject {
    const chain: { pack: PackFile; offset: number; delta: Buffer }[] = [];
    let base: StoredObject | undefined;
    let p = pack;
    let at = offset;
    while (base === undefined) {
      if (chain.length > maxChain) throw damagedChain(p, offset, `a delta chain longer than ${maxChain}`);
      const cached = this.bases.get(`${p.path}:${at}`);
      if (cached !== undefined) {
        base = cached;
        break;
      }
      const entry = p.readEntry(at);
      if (entry.kind === 'whole') {
        base = { type: entry.type, content: entry.data };
        if (chain.length > 0) this.bases.set(`${p.path}:${at}`, base);
        break;
      }
      chain.push({ pack: p, offset: at, delta: entry.data });
      if (entry.kind === 'ofs') {
        at = entry.baseOffset;
        continue;
      }
      const next = this.locate(entry.baseOid, p);
      if (next !== null) {
        p = next.pack;
        at = next.offset;
        continue;
      }
      const loose = readLooseObject(this.gitdir, entry.baseOid);
      if (loose === null)
        throw damagedChain(p, at, `its delta base ${entry.baseOid} is in no pack and not loose`);
      base = loose;
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const link = chain[i]!;
      let content: Buffer;
      try {
        content = applyDelta(base.content, link.delta);
      } catch (e) {
        if (!(e instanceof DeltaError)) throw e;
        throw damagedChain(link.pack, link.offset, `its delta does not apply: ${e.message}`);
      }
      base = { type: base.type, content };
      if (i > 0) this.bases.set(`${link.pack.path}:${link.offset}`, base);
    }
    return base;
  }

  private listed(): PackFile[] {
    this.packs ??= this.listPacks();
    return this.packs;
  }

  /** Opens the packs that have both files, reusing those already open. */
  private listPacks(): PackFile[] {
    const dir = join(this.gitdir, 'objects', 'pack');
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    const present = new Set(names);
    const known = new Map((this.packs ?? []).map((p) => [p.path, p]));
    const packs: PackFile[] = [];
    for (const file of names) {
      const name = packIndexName.exec(file)?.[1];
      if (name === undefined || !present.has(`${name}.pack`)) continue;
      const path = join(dir, `${name}.pack`);
      const reused = known.get(path);
      if (reused !== undefined) {
        packs.push(reused);
        continue;
      }
      try {
        packs.push(PackFile.open(path, join(dir, file)));
      } catch (e) {
        // Removed between the listing and the open (a repack finishing): it is not there.
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' || !existsSync(path)) continue;
        throw e;
      }
    }
    return packs;
  }
}

function hashOf(object: StoredObject): string {
  return createHash('sha1')
    .update(`${object.type} ${object.content.length}\0`)
    .update(object.content)
    .digest('hex');
}

function damagedChain(pack: PackFile, offset: number, why: string): GitWriteError {
  return new GitWriteError('CorruptObject', `${pack.path}: damaged pack: entry at offset ${offset}: ${why}`);
}
