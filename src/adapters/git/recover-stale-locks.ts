// Recovering the ref locks a dead gitfleet writer left behind (lock-record.ts writes the records).
// A `<ref>.lock` is removed only when all of these hold:
//
//   - a record lists it, and the record's writer ran on this host and is gone (its pid no longer
//     runs, runs a process with another start time, or the host has booted since);
//   - no record of a writer that still runs lists it;
//   - the lock is no older than the record (it was made after the record was written) and holds
//     nothing, or the id the record says its writer would write: a lock made or written by
//     someone else since holds another value, and is left alone.
//
// A recovering writer first claims a dead record by renaming it to
// `<token>.json.claimed-<its own token>`, which exactly one writer can do, so two writers never
// both remove a lock that one of them has taken since. A claim whose claimer died is claimed again.
import { readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  lockRecordDirectory,
  readLockRecordFile,
  readLockRecords,
  type StoredLockRecord,
} from './lock-record.js';
import { livenessOf, type WriterIdentity } from './writer-identity.js';

/** What recovery found for the locks a batch could not take. */
export interface LockRecovery {
  /** Lock paths (relative to the git directory) removed. */
  removed: string[];
  /** Lock path → the running gitfleet writer whose record lists it. */
  heldBy: Map<string, WriterIdentity>;
}

/** Removes the stale locks of dead gitfleet writers; returns what it removed and who holds the rest. */
export function recoverStaleLocks(opts: {
  gitdir: string;
  /** The recovering batch's own record token. */
  own: string;
  /** The lock paths the batch found taken. */
  locked: readonly string[];
  warn: (message: string) => void;
}): LockRecovery {
  const records = readLockRecords(opts.gitdir, (f) => f.endsWith('.json')).filter(
    (r) => r.token !== opts.own,
  );
  const running = records.filter((r) => livenessOf(r.writer) !== 'gone');
  const liveLocks = new Map(running.flatMap((r) => r.locks.map((l) => [l.path, r.writer] as const)));
  const heldBy = new Map<string, WriterIdentity>();
  for (const path of opts.locked) {
    const writer = liveLocks.get(path);
    if (writer) heldBy.set(path, writer);
  }
  const removed: string[] = [];
  const runningTokens = new Set(running.map((r) => r.token));
  for (const dead of [
    ...records.filter((r) => !running.includes(r)),
    ...orphanClaims(opts.gitdir, runningTokens),
  ]) {
    const claimed = claim(opts.gitdir, dead.file, opts.own);
    if (!claimed) continue;
    const gone = claimed.locks.filter(
      (l) => !liveLocks.has(l.path) && removeIfStale(opts.gitdir, l, claimed.mtimeMs),
    );
    removed.push(...gone.map((l) => l.path));
    rmSync(join(opts.gitdir, lockRecordDirectory, claimed.file), { force: true });
    if (gone.length > 0)
      opts.warn(
        staleLocksMessage(
          opts.gitdir,
          claimed.writer,
          gone.map((l) => l.path),
        ),
      );
  }
  return { removed, heldBy };
}

/** Claims whose claimer's own record is gone or dead: their recovery stopped half way. */
function orphanClaims(gitdir: string, runningTokens: ReadonlySet<string>): StoredLockRecord[] {
  return readLockRecords(gitdir, (f) => f.includes('.json.claimed-')).filter(
    (r) => !runningTokens.has(r.file.slice(r.file.indexOf('.json.claimed-') + '.json.claimed-'.length)),
  );
}

/** Renames a record to this writer's claim on it; null when another writer claimed it first. */
function claim(gitdir: string, file: string, own: string): (StoredLockRecord & { file: string }) | null {
  const dir = join(gitdir, lockRecordDirectory);
  const base = file.slice(0, file.indexOf('.json') + '.json'.length);
  const claimedFile = `${base}.claimed-${own}`;
  try {
    renameSync(join(dir, file), join(dir, claimedFile));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const record = readLockRecordFile(join(dir, claimedFile));
  return record ? { ...record, file: claimedFile } : null;
}

/** Removes the lock when it is the dead writer's (see the rules above); returns whether it did. */
function removeIfStale(
  gitdir: string,
  lock: { path: string; newOid: string },
  recordMtimeMs: number,
): boolean {
  const path = join(gitdir, lock.path);
  let content: string;
  try {
    if (statSync(path).mtimeMs < recordMtimeMs) return false;
    content = readFileSync(path, 'utf8');
  } catch {
    return false;
  }
  if (content !== '' && content !== `${lock.newOid}\n`) return false;
  rmSync(path, { force: true });
  return true;
}

function staleLocksMessage(gitdir: string, writer: WriterIdentity, paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(', ') + (paths.length > 3 ? ` and ${paths.length - 3} more` : '');
  return `${gitdir}: removed ${paths.length} stale ref lock(s) of gitfleet process ${writer.pid} on ${writer.host}, which is gone (killed or crashed inside its ref update): ${shown}`;
}
