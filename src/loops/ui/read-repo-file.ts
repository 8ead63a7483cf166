// The few reads of git objects the dashboard makes itself, beyond what readFleetStatus and
// previewDiff read: one file of a cluster branch (the template page's rendered YAML), and a
// revision resolved to a commit with its parent and subject (the commit page's two sides).
import git from 'isomorphic-git';
import { objectStoreFs } from '../../adapters/git/object-store-fs.js';

/** A local git directory being read, with isomorphic-git's pack cache for one reading. */
export interface ReadRepo {
  fs: ReturnType<typeof objectStoreFs>;
  gitdir: string;
  cache: object;
}

/** Returns a repository reader over a git directory. */
export function openReadRepo(gitdir: string): ReadRepo {
  return { fs: objectStoreFs(gitdir), gitdir, cache: {} };
}

/** Returns one file of a commit's tree, or undefined when it is not there. */
export async function readFileAt(repo: ReadRepo, commit: string, path: string): Promise<string | undefined> {
  try {
    const { blob } = await git.readBlob({ ...repo, oid: commit, filepath: path });
    return new TextDecoder().decode(blob);
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFoundError') return undefined;
    throw error;
  }
}

/** Returns a commit's first parent and subject line. */
export async function readCommitInfo(
  repo: ReadRepo,
  oid: string,
): Promise<{ parent: string | undefined; subject: string }> {
  const { commit } = await git.readCommit({ ...repo, oid });
  return { parent: commit.parent[0], subject: commit.message.split('\n', 1)[0] ?? '' };
}

/** Returns the commit a branch, tag, HEAD or (abbreviated) commit id names, or undefined. */
export async function resolveCommit(repo: ReadRepo, rev: string): Promise<string | undefined> {
  for (const ref of [rev, `refs/heads/${rev}`, `refs/tags/${rev}`]) {
    try {
      const oid = await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref });
      // An annotated tag names its commit through the tag object.
      return (await git.readCommit({ ...repo, oid: (await peel(repo, oid)) ?? oid })).oid;
    } catch {
      // try the next form
    }
  }
  if (!/^[0-9a-f]{4,40}$/i.test(rev)) return undefined;
  try {
    return await git.expandOid({ ...repo, oid: rev.toLowerCase() });
  } catch {
    return undefined;
  }
}

async function peel(repo: ReadRepo, oid: string): Promise<string | undefined> {
  try {
    return (await git.readTag({ ...repo, oid })).tag.object;
  } catch {
    return undefined;
  }
}
