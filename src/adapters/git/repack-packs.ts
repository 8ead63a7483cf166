// Folds the small packs (and the loose objects) of a repository into one pack, with gitfleet's
// own pack writer, so a hub that writes a pack per pass keeps a handful of packs for months.
// Which packs: plan-pack-rollup.ts (git's geometric rule). Objects are copied from their packs
// or read through gitfleet's object reader (read-git-object.ts), and written whole, like every
// pack gitfleet writes (no deltas).
//
// Safe against a concurrent reader, and against a crash at any point, by its order:
//
// | step                                       | a crash here leaves                                  |
// |--------------------------------------------|------------------------------------------------------|
// | 1. the new pack and index as temp files    | temp files, removed by the next write or repack      |
// | 2. a journal: the new pack's name, the old | the same; the next repack removes the journal        |
// |    packs and the loose objects folded in   |                                                      |
// | 3. rename the .pack, then the .idx         | a .pack without its .idx, which no reader ever sees: |
// |                                            | the next repack removes it (the journal names it)    |
// | 4. remove each old .idx, then its .pack    | some old packs gone, their objects in the new pack;  |
// | 5. remove the loose objects folded in      | the next repack finishes what the journal lists      |
// | 6. remove the journal                      | a clean repository                                   |
//
// A reader never misses an object: the new pack is visible (its .idx renamed) before anything
// is removed, and a reader that listed the packs before that and then finds one gone reads
// again with a fresh listing (read-git-object.ts). The journal's removals are only carried out
// while the pack it names is there, so nothing is removed that is not stored elsewhere.
// One repack at a time per repository: `objects/pack/gitfleet-repack.lock`, taken with O_EXCL
// and taken over only from a process that no longer runs on this host.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { defaultDeflateThreads } from './deflate-pool.js';
import type { GitObject, GitObjectType } from './git-object.js';
import { GitWriteError } from './git-write-error.js';
import { listLooseObjects, listPacks, readIndexOids } from './list-packs.js';
import { objectStoreFs } from './object-store-fs.js';
import { planPackRollup } from './plan-pack-rollup.js';
import { readGitObject } from './read-git-object.js';
import { syncPath, writeNewFile } from './sync-files.js';
import { removeStaleTempFiles } from './temp-files.js';
import { pidExists } from './pid-exists.js';
import { writeFoldedPack, type FoldStep } from './write-folded-pack.js';

/** The points between the steps above, for tests that stop a repack there (kill -9). */
export type RepackStep = FoldStep | 'journalWritten' | 'oldPackRemoved';

export interface RepackOptions {
  gitdir: string;
  /** The geometric factor (default 2). */
  factor?: number;
  /** The reader's cache marker to read through (the hub's, so the packs it indexed are not indexed twice). */
  packCache?: object;
  /** Fsync the new pack, the journal and the directory (default true). */
  fsync?: boolean;
  /** Deflate worker threads (default: the cores, at most 4). */
  threads?: number;
  /** Milliseconds since the epoch, to age temp files left by crashed writers. */
  now: number;
  /** Called at each step (tests); a rejection aborts the repack there. */
  onStep?: (step: RepackStep) => Promise<void> | void;
}

/** What a repack did. */
export type RepackResult =
  | { type: 'busy'; holder: string }
  | {
      type: 'repacked' | 'nothingToDo';
      /** The packs folded into the new one (names without suffix). */
      folded: string[];
      /** Loose objects folded in. */
      looseObjects: number;
      /** Objects in the new pack. */
      objects: number;
      /** The new pack's name, or null. */
      pack: string | null;
      /** Packs and loose objects a crashed repack had left to remove, removed now. */
      finished: number;
      /** Temp files (and pack data without an index) of crashed writers removed. */
      tempFiles: number;
    };

const journalName = 'gitfleet-repack.journal';
/** A pack data file without its index for this long is a crashed writer's leftover. */
const orphanAgeMs = 60 * 60 * 1000;
const lockName = 'gitfleet-repack.lock';
const packFileSuffixes = ['.idx', '.pack', '.rev', '.bitmap', '.mtimes', '.promisor'] as const;

interface Journal {
  /** The pack every object below is in. */
  pack: string;
  packs: string[];
  loose: string[];
}

/** Folds the repository's small packs and loose objects into one pack; see the table above. */
export async function repackPacks(opts: RepackOptions): Promise<RepackResult> {
  const packDir = join(opts.gitdir, 'objects', 'pack');
  await mkdir(packDir, { recursive: true });
  const lock = await takeLock(packDir);
  if (lock.type === 'busy') return lock;
  try {
    const sync = opts.fsync ?? true;
    const finished = await finishJournal(opts.gitdir);
    const tempFiles =
      (await removeStaleTempFiles(packDir, opts.now)).length + (await removeOrphanPacks(packDir, opts.now));
    const { folded, foldLoose } = await chooseFold(opts);
    const nothing = { folded: [], looseObjects: 0, objects: 0, pack: null, finished, tempFiles };
    if (folded.length + (foldLoose.length > 0 ? 1 : 0) < 2) return { type: 'nothingToDo', ...nothing };

    const oids = new Set<string>(foldLoose);
    for (const name of folded)
      for (const oid of await readIndexOids(join(packDir, `${name}.idx`))) oids.add(oid);
    let journal: Journal | undefined;
    const pack = await writeFoldedPack({
      packDir,
      packs: folded,
      loose: foldLoose,
      count: oids.size,
      read: foldedObjectReader(opts),
      threads: opts.threads ?? defaultDeflateThreads(),
      sync,
      step: async (s) => opts.onStep?.(s),
      // Before the new pack is renamed in: the next repack knows it was ours if it is left without its index.
      journal: async (name) => {
        // Writing the same objects again gives the same pack: that one is not removed.
        journal = { pack: name, packs: folded.filter((n) => n !== name), loose: foldLoose };
        await writeNewFile(join(packDir, journalName), Buffer.from(JSON.stringify(journal)), sync);
        if (sync) await syncPath(packDir);
        await opts.onStep?.('journalWritten');
      },
    });
    await carryOut(opts.gitdir, journal!, opts.onStep);
    await rm(join(packDir, journalName));
    if (sync) await syncPath(packDir);
    const objects = oids.size;
    return { type: 'repacked', folded, looseObjects: foldLoose.length, objects, pack, finished, tempFiles };
  } finally {
    await rm(join(packDir, lockName), { force: true });
  }
}

/**
 * The packs (biggest first) and the loose objects the rollup folds. The biggest first: its entries
 * are copied in one sequential read, and its copy of an object shared with a smaller pack is the
 * one kept.
 */
async function chooseFold(opts: RepackOptions): Promise<{ folded: string[]; foldLoose: string[] }> {
  const packs = (await listPacks(opts.gitdir)).filter((p) => !p.keep);
  const loose = await listLooseObjects(opts.gitdir);
  // Loose objects count as one more small pack: they are folded in whenever any pack is.
  const looseUnit = loose.length > 0 ? [{ name: '', objects: loose.length }] : [];
  const chosen = new Set(planPackRollup([...packs, ...looseUnit], opts.factor ?? 2));
  const sizes = new Map(packs.map((p) => [p.name, p.objects]));
  const sizeOf = (name: string): number => sizes.get(name) ?? 0;
  const folded = packs.filter((p) => chosen.has(p.name)).map((p) => p.name);
  folded.sort((a, b) => sizeOf(b) - sizeOf(a));
  return { folded, foldLoose: chosen.has('') ? loose : [] };
}

/** Reads an object to fold through gitfleet's reader; only commits, trees and blobs are folded. */
function foldedObjectReader(opts: RepackOptions): (oid: string) => Promise<GitObject> {
  const source = { gitdir: opts.gitdir, cache: opts.packCache ?? {}, fs: objectStoreFs(opts.gitdir) };
  return async (oid) => {
    const { type, content } = await readGitObject(source, oid);
    if (type !== 'blob' && type !== 'tree' && type !== 'commit') {
      throw new GitWriteError(
        'WrongObjectType',
        `${oid} in ${opts.gitdir}: a ${type}; the repack writes commits, trees and blobs only, so the packs are left as they are`,
      );
    }
    return { type: type as GitObjectType, content, oid };
  };
}

/** Removes what a journal lists, the old packs' indexes first; only while the pack it names is there. */
async function carryOut(gitdir: string, journal: Journal, onStep?: RepackOptions['onStep']): Promise<void> {
  const packDir = join(gitdir, 'objects', 'pack');
  const holder = join(packDir, journal.pack);
  if (!existsSync(`${holder}.idx`) || !existsSync(`${holder}.pack`)) {
    throw new GitWriteError(
      'MissingObject',
      `${packDir}/${journalName}: names ${journal.pack}, which is gone; the packs it lists are kept (remove the journal once the repository checks clean with git fsck)`,
    );
  }
  for (const name of journal.packs) {
    for (const suffix of packFileSuffixes) await rm(join(packDir, `${name}${suffix}`), { force: true });
    await onStep?.('oldPackRemoved');
  }
  for (const oid of journal.loose) {
    await rm(join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2)), { force: true });
  }
}

/** Carries out the journal a crashed repack left, if any; returns how many packs and objects it removed. */
async function finishJournal(gitdir: string): Promise<number> {
  const path = join(gitdir, 'objects', 'pack', journalName);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let journal: Journal;
  try {
    journal = JSON.parse(text) as Journal;
  } catch {
    // The journal is fsynced before the new pack is renamed in: a torn one means only temp files were written.
    await rm(path);
    return 0;
  }
  const pack = join(gitdir, 'objects', 'pack', journal.pack);
  if (!existsSync(`${pack}.idx`)) {
    // Killed before the new pack's index was renamed in: no reader ever saw that pack, and the
    // old packs are all there. Its data file, if renamed already, is the repack's own leftover.
    await rm(`${pack}.pack`, { force: true });
    await rm(path);
    return 1;
  }
  await carryOut(gitdir, journal);
  await rm(path);
  return journal.packs.length + journal.loose.length;
}

/**
 * Removes the `.pack` files without an `.idx` older than an hour: left by a pack writer killed
 * between its two renames (write-pack.ts renames the data first). No reader opens a pack it
 * has no index for, and no live writer takes an hour between the renames. Returns how many.
 */
async function removeOrphanPacks(packDir: string, now: number): Promise<number> {
  const names = await readdir(packDir);
  const present = new Set(names);
  let removed = 0;
  for (const name of names) {
    if (!/^pack-[0-9a-f]+\.pack$/.test(name) || present.has(name.replace(/\.pack$/, '.idx'))) continue;
    const info = await stat(join(packDir, name)).catch(() => undefined);
    if (info === undefined || now - info.mtimeMs < orphanAgeMs) continue;
    await rm(join(packDir, name), { force: true });
    removed++;
  }
  return removed;
}

/** Takes the repack lock, or names its live holder. */
async function takeLock(packDir: string): Promise<{ type: 'taken' } | { type: 'busy'; holder: string }> {
  const path = join(packDir, lockName);
  const me = `${hostname()} ${process.pid}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeNewFile(path, Buffer.from(me), false);
      return { type: 'taken' };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(path);
    if (holder !== null && isLive(holder)) return { type: 'busy', holder };
    await rm(path, { force: true });
  }
  return { type: 'busy', holder: readHolder(path) ?? 'unknown' };
}

function readHolder(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** A holder on another host counts as live: its pids cannot be checked from here. */
function isLive(holder: string): boolean {
  const [host, pid] = holder.split(' ');
  if (host !== hostname()) return true;
  return pidExists(Number(pid));
}
