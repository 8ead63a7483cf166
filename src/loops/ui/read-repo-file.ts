// The few reads of git objects the dashboard makes itself, beyond what readFleetStatus and
// previewDiff read: one file of a cluster branch (the template page's rendered YAML), and a
// revision resolved to a commit (by the resolver `gitfleet diff` uses) with its parent and
// subject (the commit page's two sides).
import { objectStoreFs } from '../../adapters/git/object-store-fs.js';
import { readCommit, readFileNow } from '../../adapters/git/read-typed-object.js';
import { isGitfleetError } from '../../core/model/gitfleet-error.js';
import { GitSourceError } from '../../adapters/source/git-source-error.js';
import { resolveRevision } from '../../adapters/source/resolve-revision.js';

/** A local git directory being read, with the object reader's view for one reading (object-store.ts). */
export interface ReadRepo {
  fs: ReturnType<typeof objectStoreFs>;
  gitdir: string;
  cache: object;
}

/** Returns a repository reader over a git directory. */
export function openReadRepo(gitdir: string): ReadRepo {
  return { fs: objectStoreFs(gitdir), gitdir, cache: {} };
}

/** Returns one file of a commit's tree, or undefined when it (or the commit) is not there. */
export async function readFileAt(repo: ReadRepo, commit: string, path: string): Promise<string | undefined> {
  try {
    const bytes = readFileNow(repo, commit, path);
    return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
  } catch (error) {
    if (isGitfleetError(error, 'MissingObject')) return undefined;
    throw error;
  }
}

/** Returns a commit's first parent and subject line. */
export async function readCommitInfo(
  repo: ReadRepo,
  oid: string,
): Promise<{ parent: string | undefined; subject: string }> {
  const commit = await readCommit(repo, oid);
  return { parent: commit.parents[0], subject: commit.message.split('\n', 1)[0] ?? '' };
}

/** Returns the commit any git revision names (gitrevisions(7), as `gitfleet diff` reads them), or why none. */
export async function resolveCommit(
  repo: ReadRepo,
  rev: string,
): Promise<{ oid: string } | { error: string }> {
  try {
    return { oid: await resolveRevision({ dir: repo.gitdir, ...repo }, rev) };
  } catch (error) {
    if (error instanceof GitSourceError) return { error: error.message };
    throw error;
  }
}
