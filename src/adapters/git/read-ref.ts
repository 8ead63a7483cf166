// Reads a ref the way git resolves it: the loose file `<gitdir>/<ref>` first, else its line in
// `packed-refs` (`<id> <ref>`, with `#` header and `^<id>` peeled-tag lines skipped).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitWriteError } from './git-write-error.js';

/**
 * Returns the commit id the ref points at, or null when it does not exist; `packed` is the
 * already-read packed-refs of a batch.
 */
export async function readRef(
  gitdir: string,
  ref: string,
  packed?: ReadonlyMap<string, string>,
): Promise<string | null> {
  const loose = await readOptional(join(gitdir, ref));
  if (loose !== null) {
    const value = loose.trim();
    if (value.startsWith('ref: ')) {
      throw new GitWriteError(
        'InvalidRefName',
        `${ref}: a symbolic ref (${value}); gitfleet never moves one`,
      );
    }
    return value;
  }
  return (packed ?? (await readPackedRefs(gitdir))).get(ref) ?? null;
}

/** Returns every ref of `packed-refs` and its id (empty when the file does not exist). */
export async function readPackedRefs(gitdir: string): Promise<Map<string, string>> {
  const text = (await readOptional(join(gitdir, 'packed-refs'))) ?? '';
  const refs = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
  }
  return refs;
}

/**
 * A missing file, or a path that is a directory or runs through a file, reads as null. Read
 * synchronously: a ref is 41 bytes, and the promise form's thread-pool round trip costs more.
 */
async function readOptional(path: string): Promise<string | null> {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw error;
  }
}
