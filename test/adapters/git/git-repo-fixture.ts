// Real repositories for the git writer tests, made and checked with the git command line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toGitObject } from '../../../src/adapters/git/hash-object.js';
import type { GitObject } from '../../../src/adapters/git/git-object.js';
import { testGitEnv } from '../../git-env.js';
import { runGit, type GitRunError } from '../../support/run-git.js';

export const gitEnv = testGitEnv;

/** A repository under test: its top directory and its git directory (the same when bare). */
export interface TestRepo {
  dir: string;
  gitdir: string;
}

const made: string[] = [];

/** Returns a new empty repository on branch main, bare or with a work tree. */
export function makeRepo(opts: { bare: boolean }): TestRepo {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-git-'));
  made.push(dir);
  runGit(['-c', 'init.defaultBranch=main', 'init', '-q', ...(opts.bare ? ['--bare'] : []), dir], {
    env: gitEnv,
  });
  return { dir, gitdir: opts.bare ? dir : join(dir, '.git') };
}

/** Removes every repository made by this module. */
export function removeRepos(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Runs git on the repository (stdin from `input`) and returns its output, trailing newline trimmed. */
export function git(repo: TestRepo, args: readonly string[], input?: string | Uint8Array): string {
  return runGit(args, { gitdir: repo.gitdir, env: gitEnv, ...(input === undefined ? {} : { input }) });
}

/** Runs git expecting failure; returns its exit status and stderr. */
export function gitFails(repo: TestRepo, args: readonly string[]): { status: number; stderr: string } {
  try {
    runGit(args, { gitdir: repo.gitdir, env: gitEnv });
  } catch (error) {
    const e = error as GitRunError;
    return { status: e.status, stderr: e.stderr };
  }
  return { status: 0, stderr: '' };
}

/** Returns the root tree git itself builds for the files (path -> blob id, mode 100644) from an index. */
export function gitTreeOf(repo: TestRepo, files: ReadonlyMap<string, string>): string {
  git(repo, ['read-tree', '--empty']);
  const lines = [...files].map(([path, oid]) => `100644 ${oid}\t${path}\n`).join('');
  git(repo, ['update-index', '--add', '--index-info'], lines);
  return git(repo, ['write-tree', '--missing-ok']);
}

/** Returns `count` distinct YAML blobs, shaped like rendered manifests. */
export function manifestBlobs(count: number, variant = ''): GitObject[] {
  return Array.from({ length: count }, (_, i) =>
    toGitObject(
      'blob',
      Buffer.from(
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}${variant}\ndata:\n  key: "${i * 31}"\n`,
      ),
    ),
  );
}
