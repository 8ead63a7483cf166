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

/** Returns the git directory of the repository that holds `dir` (it or a directory above it), or undefined when none does. */
export function findEnclosingGitdir(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const gitdir = findLocalGitdir(at);
    if (gitdir !== undefined) return gitdir;
    if (dirname(at) === at) return undefined;
  }
}

function commonDir(gitdir: string): string {
  const file = join(gitdir, 'commondir');
  return existsSync(file) ? resolve(gitdir, readFileSync(file, 'utf8').trim()) : gitdir;
}
