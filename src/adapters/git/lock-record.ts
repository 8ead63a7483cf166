// Before a gitfleet writer takes the ref locks of a batch, it says so in a small record outside
// refs/: `<gitdir>/gitfleet-locks/<token>.json`, holding who it is (writer-identity.ts) and each
// lock it is about to create with the value it will write there. The record is fsynced before
// the first lock exists, so any lock a crash leaves behind is listed by a record on disk, and
// it is removed once the batch has released its locks. Records are per batch, never a global
// lock: the hub and the agents writing status refs into one repository lock in parallel.
//
// A record only ever lets a later writer remove locks of its own writer (recover-stale-locks.ts);
// git's own locks and those of other hosts are never listed by one.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { currentWriter, type WriterIdentity } from './writer-identity.js';

const fsyncAsync = promisify(fsync);

/** The directory of the records, in the git directory and outside refs/. */
export const lockRecordDirectory = 'gitfleet-locks';

/** A lock a writer is about to take: the lock file (relative to the git directory) and the id it will hold. */
export interface RecordedLock {
  path: string;
  newOid: string;
}

/** What a record holds. */
export interface LockRecord {
  writer: WriterIdentity;
  token: string;
  locks: RecordedLock[];
}

/** A record as found on disk: its file name and the time it was written. */
export interface StoredLockRecord extends LockRecord {
  file: string;
  mtimeMs: number;
}

/** Writes this process's record of the locks it is about to take; returns it, with a remover. */
export async function writeLockRecord(opts: {
  gitdir: string;
  locks: readonly RecordedLock[];
  sync: boolean;
}): Promise<LockRecord & { remove(): void }> {
  const token = randomBytes(8).toString('hex');
  const record: LockRecord = { writer: currentWriter(), token, locks: [...opts.locks] };
  const dir = join(opts.gitdir, lockRecordDirectory);
  const path = join(dir, `${token}.json`);
  let file: number;
  try {
    file = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true });
    file = openSync(path, 'wx');
  }
  try {
    writeSync(file, JSON.stringify(record));
    if (opts.sync) await fsyncAsync(file);
  } finally {
    closeSync(file);
  }
  return { ...record, remove: () => removeFile(path) };
}

/** Whether the directory holds any file besides the given record: a batch running, or one that died. */
export function hasOtherRecords(gitdir: string, token: string): boolean {
  try {
    return readdirSync(join(gitdir, lockRecordDirectory)).some((f) => f !== `${token}.json`);
  } catch {
    return false;
  }
}

/** Returns the records in the directory whose names end with the suffix (`.json`: records of running batches). */
export function readLockRecords(gitdir: string, matches: (file: string) => boolean): StoredLockRecord[] {
  const dir = join(gitdir, lockRecordDirectory);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const records: StoredLockRecord[] = [];
  for (const file of names.filter(matches)) {
    const record = readLockRecordFile(join(dir, file));
    if (record) records.push({ ...record, file });
  }
  return records;
}

/** Returns a record file's content and time, or null when it is gone or not a record (a torn write). */
export function readLockRecordFile(path: string): (LockRecord & { mtimeMs: number }) | null {
  try {
    const mtimeMs = statSync(path).mtimeMs;
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockRecord>;
    if (!parsed.writer || typeof parsed.token !== 'string' || !Array.isArray(parsed.locks)) return null;
    return { writer: parsed.writer, token: parsed.token, locks: parsed.locks, mtimeMs };
  } catch {
    return null;
  }
}

/** Removes a file, gone already or not (rmSync's `force` goes through its recursive remover: a stat and more). */
function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
