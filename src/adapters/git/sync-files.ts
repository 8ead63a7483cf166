// Durability helpers: objects must be on disk before a ref names them, so every file this
// writer creates is fsynced before its rename, and the directory after it.
import { open } from 'node:fs/promises';

/** Git keeps object files read-only: they are never rewritten in place. */
export const objectFileMode = 0o444;

/** Writes bytes to a new read-only file (failing if it exists), fsynced when `sync` is set. */
export async function writeNewFile(path: string, bytes: Uint8Array, sync: boolean): Promise<void> {
  const file = await open(path, 'wx', objectFileMode);
  try {
    await file.write(bytes);
    if (sync) await file.sync();
  } finally {
    await file.close();
  }
}

/** Fsyncs a file, or a directory so the renames into it survive a crash. */
export async function syncPath(path: string): Promise<void> {
  const dir = await open(path, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
