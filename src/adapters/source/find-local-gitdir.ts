import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Returns the git directory of a local repository, or undefined when the path is none: a work
 * tree's `.git` directory; for a linked work tree (`.git` is a `gitdir:` file), the common
 * directory that holds its branches and objects; else the path itself when it is bare.
 */
export function findLocalGitdir(path: string): string | undefined {
  const dotGit = join(path, '.git');
  if (existsSync(dotGit)) {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    if (match?.[1]) return commonDir(resolve(path, match[1]));
  }
  if (existsSync(join(path, 'HEAD')) && existsSync(join(path, 'objects'))) return path;
  return undefined;
}

/**
 * Returns the git directory holding the HEAD of the repository at `path`, or undefined: as
 * findLocalGitdir, except that a linked work tree's is its own git directory (its HEAD and
 * per-work-tree refs; read-refs.ts finds the common one through its `commondir` file).
 */
export function findHeadDir(path: string): string | undefined {
  const dotGit = join(path, '.git');
  if (existsSync(dotGit) && !statSync(dotGit).isDirectory()) {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    if (match?.[1]) return resolve(path, match[1]);
  }
  return findLocalGitdir(path);
}

/** Returns the HEAD's git directory (findHeadDir) of the repository holding `dir`, it or a directory above it; undefined when none does. */
export function findEnclosingHeadDir(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const found = findHeadDir(at);
    if (found !== undefined) return found;
    if (dirname(at) === at) return undefined;
  }
}

function commonDir(gitdir: string): string {
  const file = join(gitdir, 'commondir');
  return existsSync(file) ? resolve(gitdir, readFileSync(file, 'utf8').trim()) : gitdir;
}
