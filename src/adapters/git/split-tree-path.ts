// Paths of files in a built tree: relative, '/'-separated, each component one a tree may hold.
import { GitWriteError } from './git-write-error.js';

/** Returns the components of a path, or throws when git would refuse it in a tree. */
export function splitTreePath(path: string): string[] {
  const parts = path.split('/');
  for (const part of parts) assertValidName(part, path);
  return parts;
}

/** Throws InvalidPath, naming the whole path, unless a tree may hold an entry of this name. */
export function assertValidName(name: string, path: string): void {
  if (!isValidName(name)) {
    throw new GitWriteError('InvalidPath', `${JSON.stringify(path)}: not a path git stores in a tree`);
  }
}

/** A NUL, or a lone surrogate (a string no UTF-8 encoding can carry). */
const unstorable = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Empty, `.`, `..`, `.git` in any case (fsck's hasDotgit), NUL, or not encodable as UTF-8. */
function isValidName(name: string): boolean {
  if (name === '' || name === '.' || name === '..' || name.toLowerCase() === '.git') return false;
  return !unstorable.test(name);
}
