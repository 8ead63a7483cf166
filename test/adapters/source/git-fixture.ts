// Real git repositories in temp dirs, made with the git command line.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runGit } from '../../support/run-git.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'Test Committer',
  GIT_COMMITTER_EMAIL: 'committer@example.com',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** Runs git in `dir` and returns its trimmed output. */
export function git(dir: string, ...args: string[]): string {
  return runGit(['-C', dir, ...args], { env }).trim();
}

export { tempDir, removeTempDirs as cleanup };

/** Writes files (path → text) under `dir`, making directories as needed. */
export function writeFiles(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, ...path.split('/'));
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** Creates a symbolic link at `path` (relative to dir) pointing at `target`. */
export function link(dir: string, path: string, target: string): void {
  const full = join(dir, ...path.split('/'));
  mkdirSync(dirname(full), { recursive: true });
  symlinkSync(target, full);
}

/** Returns a new non-bare repository on branch main. */
export function initRepo(): string {
  const dir = tempDir('repo');
  runGit(['-c', 'init.defaultBranch=main', 'init', '-q', dir], { env });
  return dir;
}

/** Stages everything and commits; returns the commit id. */
export function commitAll(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}
