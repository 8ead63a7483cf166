// A few files written where nothing is yet (`gitfleet cluster join -o DIR`, and its key file
// without -o): the directory is created (mode 0700: it may hold a private key) or must be empty,
// and each file is created, never overwritten, never through a link (O_EXCL | O_NOFOLLOW), with
// its own mode from the start, so a private key is never readable by others, even for a moment.
import { constants } from 'node:fs';
import { mkdir, open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { OutputDirError } from './output-dir-error.js';

/** One file to create: its name in the directory, its text and its mode. */
export interface NewFile {
  name: string;
  text: string;
  mode: number;
}

const createFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Creates `dir` (or takes it empty) and writes the files into it; refuses a directory that holds anything. */
export async function writeNewFiles(dir: string, files: readonly NewFile[]): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const present = await readdir(dir);
  if (present.length > 0) {
    throw new OutputDirError(
      'OutputDirNotOurs',
      `${dir}: not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}); gitfleet writes a new overlay only into a new or empty directory`,
    );
  }
  const written: string[] = [];
  try {
    for (const file of files) {
      await createFile(join(dir, file.name), file.text, file.mode);
      written.push(file.name);
    }
  } catch (error) {
    // Half an overlay is no overlay: what this call wrote goes.
    for (const name of written) await rm(join(dir, name), { force: true });
    throw error;
  }
}

/** Creates one file with the mode given (refusing one that exists, or a link in its place). */
export async function createFile(path: string, text: string, mode: number): Promise<void> {
  let handle;
  try {
    handle = await open(path, createFlags, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ELOOP')
      throw new OutputDirError('OutputDirNotOurs', `${path}: exists already; nothing is overwritten`);
    throw error;
  }
  try {
    // The umask may have narrowed the mode; never widened: chmod says it exactly.
    await handle.chmod(mode);
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}
