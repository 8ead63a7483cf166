// git's ref lock: `<ref>.lock`, created with O_CREAT|O_EXCL so exactly one writer holds it.
// The new value is written into the lock and the lock renamed over the ref, so readers see
// the old value or the new one, never a partial file.
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { GitWriteError } from './git-write-error.js';

/** A held lock on one ref. */
export interface RefLock {
  ref: string;
  /** The ref file the lock is renamed over. */
  refPath: string;
  /** Writes `<oid>\n` into the lock (fsynced when `sync`) and closes it. */
  write(oid: string, sync: boolean): Promise<void>;
  /** Renames the written lock over the ref: the moment the ref moves. */
  commit(): Promise<void>;
  /** Drops the lock without moving the ref; safe to call after a commit or twice. */
  release(): Promise<void>;
}

/** Takes the lock of a ref and returns it; RefLocked when someone else holds it. */
export async function lockRef(gitdir: string, ref: string): Promise<RefLock> {
  const refPath = join(gitdir, ref);
  await makeRefDirectory(ref, refPath);
  const lockPath = `${refPath}.lock`;
  const file = await openExclusive(ref, lockPath);
  let open = true;
  let committed = false;
  const close = async (): Promise<void> => {
    if (open) await file.close();
    open = false;
  };
  return {
    ref,
    refPath,
    write: async (oid, sync) => {
      await file.write(`${oid}\n`);
      if (sync) await file.sync();
      await close();
    },
    commit: async () => {
      await close();
      await rename(lockPath, refPath);
      committed = true;
    },
    release: async () => {
      await close().catch(() => undefined);
      if (!committed) await rm(lockPath, { force: true });
    },
  };
}

/** Creates the ref's directory; a loose ref where a directory must go is a name clash. */
async function makeRefDirectory(ref: string, refPath: string): Promise<void> {
  try {
    await mkdir(dirname(refPath), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTDIR' && code !== 'EEXIST') throw error;
    throw new GitWriteError('InvalidRefName', `${ref}: an existing ref is a prefix of this name`);
  }
  if ((await stat(refPath).catch(() => undefined))?.isDirectory()) {
    throw new GitWriteError('InvalidRefName', `${ref}: existing refs live under this name`);
  }
}

async function openExclusive(ref: string, lockPath: string): Promise<FileHandle> {
  try {
    return await open(lockPath, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new GitWriteError(
      'RefLocked',
      `${ref}: locked: ${lockPath} exists; another writer holds it, or one that crashed left it ` +
        'behind (remove it once no writer runs)',
    );
  }
}
