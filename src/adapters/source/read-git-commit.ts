// Reads a fleet repo from one commit of a git repository, straight from its objects (loose or
// packed), without a checkout, so what is rendered is exactly what was committed.
//
// - the repository may be bare or not: the git directory is `<dir>/.git` when that exists
//   (a directory, or a `gitdir:` file), otherwise `<dir>` itself;
// - the ref may be a branch, a tag (annotated tags are peeled to their commit), HEAD, or a full
//   or abbreviated commit id;
// - the same path filter as every source applies (is-fleet-source-path.ts); submodules (mode
//   160000) and symbolic links (mode 120000) are skipped, as the directory reader skips links.
import { findLocalGitdir } from './find-local-gitdir.js';
import git, { Errors } from 'isomorphic-git';
import { comparePaths } from '../../core/load/compare-paths.js';
import { isFleetSourceDirectory, isFleetSourcePath } from '../../core/load/is-fleet-source-path.js';
import type { SourceFile } from '../../core/load/load-fleet.js';
import { decodeSourceText } from './decode-source-text.js';
import { objectStoreFs } from '../git/object-store-fs.js';
import { corruptObjectMessage } from '../git/corrupt-object.js';
import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type GitSourceErrorCode =
  'NotAGitRepository' | 'RefNotFound' | 'AmbiguousRef' | 'NotACommit' | 'CorruptObject';

/** Why a commit could not be read; retrying cannot fix any of these. */
export class GitSourceError extends GitfleetError<GitSourceErrorCode> {
  constructor(code: GitSourceErrorCode, message: string) {
    super(message, { code, terminal: true });
  }
}

const READ_BATCH = 64;

/** A repository being read: `dir` names it in messages. */
export interface GitSourceRepo {
  dir: string;
  gitdir: string;
  /** The file system as isomorphic-git sees it (object-store-fs.ts). */
  fs: ReturnType<typeof objectStoreFs>;
  /** isomorphic-git's cache of parsed packfiles, shared by every read of one call. */
  cache: object;
}

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

async function resolveToOid(repo: GitSourceRepo, ref: string): Promise<string> {
  try {
    return await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref });
  } catch (e) {
    if (!(e instanceof Errors.NotFoundError)) throw e;
  }
  if (/^[0-9a-fA-F]{4,40}$/.test(ref)) {
    try {
      return await git.expandOid({
        fs: repo.fs,
        gitdir: repo.gitdir,
        oid: ref.toLowerCase(),
        cache: repo.cache,
      });
    } catch (e) {
      if (e instanceof Errors.AmbiguousError) {
        throw new GitSourceError(
          'AmbiguousRef',
          `ref '${ref}': ambiguous in ${repo.dir}: more than one object starts with it`,
        );
      }
      if (!(e instanceof Errors.NotFoundError)) throw e;
    }
  }
  throw new GitSourceError('RefNotFound', `ref '${ref}': not found in ${repo.dir}`);
}

/**
 * Returns the commit a ref names and its tree: a branch, a tag (annotated tags peeled), HEAD,
 * or a full or abbreviated commit id; a GitSourceError when it names no commit.
 */
export async function resolveCommitTree(
  repo: GitSourceRepo,
  ref: string,
): Promise<{ commit: string; treeOid: string; message: string }> {
  return readCommitTree(repo, ref, await resolveToOid(repo, ref));
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
      throw new GitSourceError('RefNotFound', `ref '${ref}': not found in ${repo.dir} (no object ${oid})`);
    }
    if (e instanceof Errors.ObjectTypeError) {
      throw new GitSourceError('NotACommit', `ref '${ref}': ${oid} in ${repo.dir} is not a commit`);
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
