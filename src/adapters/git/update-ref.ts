// Moves refs by compare-and-swap, with git's own locking protocol, so git and gitfleet can
// share a repository:
//
//   1. create `<ref>.lock` with O_CREAT|O_EXCL: exactly one writer wins (ref-lock.ts);
//   2. read the current value (loose file, else packed-refs) and compare it with the value
//      the caller expects (null: the ref must not exist);
//   3. refuse a move that is not a fast-forward (the new commit must descend from the old);
//   4. write `<id>\n` to the lock, fsync it, rename it over the ref, fsync the directory.
//
// A batch takes every lock and passes every check before any ref moves, as
// `git update-ref --stdin` with `--atomic` does; only a crash during the final renames can
// leave some refs moved and others not, each at its old or its new commit. Reflogs are not
// written.
//
// Before its locks, a batch writes a record of who it is and which locks it takes
// (lock-record.ts), removed after the batch. A lock that is already there is left alone, unless
// a record shows that a gitfleet writer of this host made it and is gone (killed inside its
// batch): then it is removed and the batch goes on (recover-stale-locks.ts). Any other lock is
// reported (RefLocked), never broken.
import { dirname } from 'node:path';
import { GitWriteError } from './git-write-error.js';
import { isAncestor } from './is-ancestor.js';
import { readGitObject, withCache, type ObjectSource } from './read-git-object.js';
import { readPackedRefs, readRef } from './read-ref.js';
import { hasOtherRecords, writeLockRecord } from './lock-record.js';
import { recoverStaleLocks } from './recover-stale-locks.js';
import { assertNoRefsUnder, lockRef, type RefLock } from './ref-lock.js';
import { assertValidRefName } from './ref-name.js';
import { syncPath } from './sync-files.js';

/** One ref to move. */
export interface RefUpdateRequest {
  /** Full name, e.g. `refs/heads/gitfleet/clusters/member1`. */
  ref: string;
  /** The commit the ref must point at afterwards. */
  newOid: string;
  /** The commit the ref must point at now; null when it must not exist yet. */
  expectedOld: string | null;
}

export interface RefUpdateSettings extends ObjectSource {
  /** Accept a new commit that does not descend from the old one (the hub never does). */
  allowNonFastForward?: boolean;
  /** Fsync the ref files and their directories (default true). */
  fsync?: boolean;
  /** Told when the batch removed the stale locks of a dead gitfleet writer (default: nobody). */
  warn?: (message: string) => void;
  /**
   * Commits known to be stored in the repository (a push just sent them from it): their type is
   * not read back. Unlike `written`, their parents are not known here.
   */
  storedCommits?: ReadonlySet<string>;
}

export type UpdateRefOptions = RefUpdateSettings & RefUpdateRequest;

/** How a ref moved; `unchanged` when it already pointed at the new commit. */
export type RefUpdate = 'created' | 'updated' | 'unchanged';

/** Moves one ref from the expected commit to the new one and returns how it moved, or throws a typed conflict. */
export async function updateRef(opts: UpdateRefOptions): Promise<RefUpdate> {
  const [outcome] = await updateRefs({ ...opts, updates: [opts] });
  return outcome!;
}

/** Moves every ref of the batch, or none if any check fails, and returns how each moved. */
export async function updateRefs(
  batch: RefUpdateSettings & { updates: readonly RefUpdateRequest[] },
): Promise<RefUpdate[]> {
  // One cache for the batch: each read of the new commits would otherwise load the packs anew.
  const opts = withCache(batch);
  assertDistinctValidNames(opts.updates);
  await Promise.all(
    opts.updates.map((u) => (opts.storedCommits?.has(u.newOid) ? undefined : assertCommit(opts, u.newOid))),
  );
  const sync = opts.fsync ?? true;
  const record = await writeLockRecord({
    gitdir: opts.gitdir,
    locks: opts.updates.map((u) => ({ path: `${u.ref}.lock`, newOid: u.newOid })),
    sync,
  });
  const locks: RefLock[] = [];
  try {
    // Records other than this batch's: recover what dead writers left (a record a writer killed
    // outside its lock window leaves lists no lock, and goes too), so records do not pile up.
    if (hasOtherRecords(opts.gitdir, record.token)) {
      recoverStaleLocks({
        gitdir: opts.gitdir,
        own: record.token,
        locked: [],
        warn: opts.warn ?? (() => undefined),
      });
    }
    locks.push(...(await lockAll(opts, record.token)));
    // Read under the locks: git's pack-refs takes each loose ref's lock before it packs it.
    const packed = await readPackedRefs(opts.gitdir);
    const outcomes = await Promise.all(opts.updates.map((u) => checkMove(opts, u, packed)));
    const moving = opts.updates.map((u, i) => ({ u, lock: locks[i]!, outcome: outcomes[i]! }));
    const toMove = moving.filter((m) => m.outcome !== 'unchanged');
    await Promise.all(toMove.map((m) => m.lock.write(m.u.newOid, sync)));
    // Every ref but the last moves at once; the last moves after them (the hub's bindings branch).
    await Promise.all(toMove.slice(0, -1).map((m) => m.lock.commit()));
    await toMove.at(-1)?.lock.commit();
    if (sync) await Promise.all([...new Set(toMove.map((m) => dirname(m.lock.refPath)))].map(syncPath));
    return outcomes;
  } finally {
    await Promise.all(locks.map((lock) => lock.release()));
    record.remove();
  }
}

/**
 * Takes every lock of the batch, all at once (a lock is taken or refused at once, O_EXCL, so
 * the order is free). When some are taken already, the stale ones of dead gitfleet writers are
 * recovered and the batch tries once more; otherwise nothing is held and RefLocked says who
 * holds them.
 */
async function lockAll(opts: RefUpdateSettings & { updates: readonly RefUpdateRequest[] }, own: string) {
  const first = await tryLocks(opts);
  if (!first.refused) return first.locks;
  const locked = first.refused.map((e) => `${e.ref}.lock`);
  const recovery = recoverStaleLocks({
    gitdir: opts.gitdir,
    own,
    locked,
    warn: opts.warn ?? (() => undefined),
  });
  const held = first.refused.find((e) => recovery.heldBy.has(`${e.ref}.lock`));
  if (held) {
    const writer = recovery.heldBy.get(`${held.ref}.lock`)!;
    throw new GitWriteError(
      'RefLocked',
      `${held.ref}: locked by gitfleet process ${writer.pid}, which is running; try again once its update is done`,
    );
  }
  if (recovery.removed.length === 0) throw first.refused[0]!.error;
  const second = await tryLocks(opts);
  if (second.refused) throw second.refused[0]!.error;
  return second.locks;
}

/** Takes the batch's locks; when any is refused, releases those taken and returns the refusals. */
async function tryLocks(
  opts: RefUpdateSettings & { updates: readonly RefUpdateRequest[] },
): Promise<{ locks: RefLock[]; refused?: { ref: string; error: unknown }[] }> {
  const taken = await Promise.allSettled(opts.updates.map((u) => lockRef(opts.gitdir, u.ref)));
  const locks = taken.flatMap((t) => (t.status === 'fulfilled' ? [t.value] : []));
  const rejected = taken.flatMap((t, i) =>
    t.status === 'rejected' ? [{ ref: opts.updates[i]!.ref, error: t.reason }] : [],
  );
  if (rejected.length === 0) return { locks };
  await Promise.all(locks.map((lock) => lock.release()));
  const other = rejected.find((r) => !(r.error instanceof GitWriteError && r.error.code === 'RefLocked'));
  if (other) throw other.error;
  return { locks: [], refused: rejected };
}

function assertDistinctValidNames(updates: readonly RefUpdateRequest[]): void {
  const seen = new Set<string>();
  for (const { ref } of updates) {
    assertValidRefName(ref);
    if (seen.has(ref)) throw new GitWriteError('InvalidRefName', `${ref}: named twice in one update`);
    seen.add(ref);
  }
}

async function assertCommit(source: ObjectSource, oid: string): Promise<void> {
  if (!/^[0-9a-f]{40}$/.test(oid)) throw new GitWriteError('InvalidObjectId', `${oid}: not an object id`);
  if (source.written?.has(oid)) return;
  const { type } = await readGitObject(source, oid);
  if (type !== 'commit') throw new GitWriteError('WrongObjectType', `${oid}: a ${type}, not a commit`);
}

/** Under the lock: compares, checks the fast-forward and name clashes with packed refs. */
async function checkMove(
  settings: RefUpdateSettings,
  u: RefUpdateRequest,
  packed: ReadonlyMap<string, string>,
): Promise<RefUpdate> {
  assertNoRefsUnder(settings.gitdir, u.ref);
  const actual = await readRef(settings.gitdir, u.ref, packed);
  const detail = { ref: u.ref, expected: u.expectedOld, actual };
  if (actual !== u.expectedOld) {
    const message = `${u.ref}: expected ${u.expectedOld ?? 'no ref'}, found ${actual ?? 'no ref'}`;
    throw new GitWriteError('RefConflict', message, detail);
  }
  if (actual === u.newOid) return 'unchanged';
  if (actual === null) {
    assertNoPackedClash(packed, u.ref);
    return 'created';
  }
  if (
    !settings.allowNonFastForward &&
    !(await isAncestor({ ...settings, ancestor: actual, descendant: u.newOid }))
  ) {
    const message = `${u.ref}: ${u.newOid} does not descend from the current ${actual}; refusing to rewrite history`;
    throw new GitWriteError('NonFastForward', message, detail);
  }
  return 'updated';
}

function assertNoPackedClash(packed: ReadonlyMap<string, string>, ref: string): void {
  for (const other of packed.keys()) {
    if (ref.startsWith(`${other}/`) || other.startsWith(`${ref}/`)) {
      throw new GitWriteError('InvalidRefName', `${ref}: clashes with the packed ref ${other}`);
    }
  }
}
