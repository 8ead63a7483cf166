import { CommandError } from './command-error.js';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readDirectorySource } from '../adapters/source/read-directory.js';
import { readGitSource } from '../adapters/source/read-git-commit.js';
import type { SourceFile } from '../core/load/load-fleet.js';
import { directorySourceTree, gitSourceTree, type SourceTree } from '../adapters/render-tools/source-tree.js';

/** Where a fleet repo was read from. */
export interface ReadSource {
  files: SourceFile[];
  /** `directory DIR` or `git DIR@REF (sha)`. */
  description: string;
  commit?: string;
  /** Every file of what was read, binary ones included: what template sources render from. */
  tree: () => SourceTree;
}

/** Returns whether a directory is a bare git repository. */
export function isBareRepo(dir: string): boolean {
  return existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects')) && existsSync(join(dir, 'refs'));
}

/**
 * Reads a fleet repo: from a commit of a git repository when a ref is given (or the source is a
 * bare repository), otherwise from the directory as it is on disk (a working tree included).
 */
export async function readSource(source: string, ref: string | undefined): Promise<ReadSource> {
  if (!existsSync(source) || !statSync(source).isDirectory()) {
    throw new CommandError('NotADirectory', `${source}: not a directory`, source);
  }
  if (ref !== undefined || isBareRepo(source)) {
    const { commit, files, gitdir } = await readGitSource({ dir: source, ref: ref ?? 'HEAD' });
    const description = `git ${source}@${ref ?? 'HEAD'} (${commit.slice(0, 12)})`;
    return { files, commit, description, tree: () => gitSourceTree({ gitdir, cache: {} }, commit) };
  }
  const files = await readDirectorySource(source);
  return { files, description: `directory ${source}`, tree: () => directorySourceTree(source) };
}

/**
 * Returns the branch a hub would render this source from, for the branch prefix check: the
 * branch --ref names, or `main` (the hub's default --source-ref) when no branch is named.
 */
export function sourceBranchOf(ref: string | undefined): string {
  if (ref === undefined || ref === 'HEAD' || /^[0-9a-f]{7,40}$/.test(ref)) return 'main';
  // A revision of one commit (HEAD~1, v1.2^{commit}, :/fix, main@{1}) names no branch either.
  if (ref === '@' || /[~^:@{}]/.test(ref)) return 'main';
  if (ref.startsWith('refs/heads/')) return ref.slice('refs/heads/'.length);
  return ref.startsWith('refs/') ? 'main' : ref;
}
