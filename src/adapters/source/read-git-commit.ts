// Reads a fleet repo from one commit of a git repository, straight from its objects (loose or
// packed), without a checkout, so what is rendered is exactly what was committed.
//
// - the repository may be bare or not: the git directory is `<dir>/.git` when that exists
//   (a directory, or a `gitdir:` file), otherwise `<dir>` itself;
// - the revision may be any git revision that names one commit (resolve-revision.ts): a branch,
//   a tag (annotated tags are peeled to their commit), HEAD, a full or abbreviated commit id,
//   `main~2`, `v1.2^{commit}`, `:/fix` and the other forms of gitrevisions(7);
// - the same path filter as every source applies (is-fleet-source-path.ts); submodules (mode
//   160000) and symbolic links (mode 120000) are skipped, as the directory reader skips links.
import { findLocalGitdir } from './find-local-gitdir.js';
import git, { Errors } from 'isomorphic-git';
import { resolveRevision } from './resolve-revision.js';
import { escapeText } from '../../core/model/quote-text.js';
import { comparePaths } from '../../core/load/compare-paths.js';
import { isFleetSourceDirectory, isFleetSourcePath } from '../../core/load/is-fleet-source-path.js';
import type { SourceFile } from '../../core/load/load-fleet.js';
import { decodeSourceText } from './decode-source-text.js';
import { objectStoreFs } from '../git/object-store-fs.js';
import { corruptObjectMessage } from '../git/corrupt-object.js';
import { GitSourceError, type GitSourceErrorCode, type GitSourceRepo } from './git-source-error.js';

export { GitSourceError, type GitSourceErrorCode, type GitSourceRepo };

const READ_BATCH = 64;

/** Returns the commit id a ref resolves to, every fleet file of that commit sorted by path, and the git directory read. */
export async function readGitSource(opts: {
  dir: string;
  ref?: string;
}): Promise<{ commit: string; files: SourceFile[]; gitdir: string; message: string }> {
  const ref = opts.ref ?? 'HEAD';
  const gitdir = findGitdir(opts.dir);
  const repo: GitSourceRepo = { dir: opts.dir, gitdir, fs: objectStoreFs(gitdir), cache: {} };
  const { commit, treeOid, message } = await resolveCommitTree(repo, ref);
  const blobs: { path: string; oid: string }[] = [];
  await listFleetBlobs(repo, treeOid, '', blobs);
  blobs.sort((a, b) => comparePaths(a.path, b.path));
  const files: SourceFile[] = [];
  for (let i = 0; i < blobs.length; i += READ_BATCH) {
    const batch = blobs.slice(i, i + READ_BATCH);
    const read = await Promise.all(
      batch.map((b) =>
        readingObject(repo, b.oid, () =>
          git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid: b.oid, cache: repo.cache }),
        ),
      ),
    );
    batch.forEach((b, j) => files.push({ path: b.path, content: decodeSourceText(read[j]!.blob, b.path) }));
  }
  return { commit, files, gitdir, message };
}

function findGitdir(dir: string): string {
  const gitdir = findLocalGitdir(dir);
  if (gitdir) return gitdir;
  throw new GitSourceError(
    'NotAGitRepository',
    `${dir}: not a git repository (no .git, and not a bare repository)`,
  );
}

/**
 * Returns the commit a revision names (any form of gitrevisions(7) naming one commit:
 * resolve-revision.ts), its tree and message; a GitSourceError when it names no commit.
 */
export async function resolveCommitTree(
  repo: GitSourceRepo,
  ref: string,
): Promise<{ commit: string; treeOid: string; message: string }> {
  return readCommitTree(repo, ref, await resolveRevision(repo, ref));
}

async function readCommitTree(
  repo: GitSourceRepo,
  ref: string,
  oid: string,
): Promise<{ commit: string; treeOid: string; message: string }> {
  try {
    // readCommit peels annotated tags down to the commit they point at.
    const read = await readingObject(repo, oid, () =>
      git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache }),
    );
    return { commit: read.oid, treeOid: read.commit.tree, message: read.commit.message };
  } catch (e) {
    if (e instanceof Errors.NotFoundError) {
      throw new GitSourceError(
        'RefNotFound',
        `revision '${escapeText(ref)}' in ${repo.dir}: names no commit (no object ${oid})`,
      );
    }
    if (e instanceof Errors.ObjectTypeError) {
      throw new GitSourceError(
        'NotACommit',
        `revision '${escapeText(ref)}' in ${repo.dir}: ${oid} is not a commit`,
      );
    }
    throw e;
  }
}

async function listFleetBlobs(
  repo: GitSourceRepo,
  treeOid: string,
  prefix: string,
  out: { path: string; oid: string }[],
): Promise<void> {
  const { tree } = await readingObject(repo, treeOid, () =>
    git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid: treeOid, cache: repo.cache }),
  );
  const subtrees: Promise<void>[] = [];
  for (const entry of tree) {
    const path = prefix ? `${prefix}/${entry.path}` : entry.path;
    if (entry.type === 'tree') {
      if (isFleetSourceDirectory(entry.path)) subtrees.push(listFleetBlobs(repo, entry.oid, path, out));
    } else if (isFleetSourceFile(path, entry.mode)) {
      out.push({ path, oid: entry.oid });
    }
  }
  await Promise.all(subtrees);
}

/** Returns what the read returns; a corrupt object becomes a GitSourceError naming it and the repository. */
async function readingObject<T>(repo: GitSourceRepo, oid: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    const corrupt = corruptObjectMessage(repo.gitdir, oid, e);
    if (corrupt) throw new GitSourceError('CorruptObject', corrupt);
    throw e;
  }
}

/**
 * Whether a tree entry that is not a directory is a fleet file to read: the same path filter
 * as every source, and neither a symbolic link (mode 120000) nor a submodule (160000).
 */
export function isFleetSourceFile(path: string, mode: string): boolean {
  return mode !== '120000' && mode !== '160000' && isFleetSourcePath(path);
}
