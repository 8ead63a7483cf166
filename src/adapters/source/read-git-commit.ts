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
import { readGitObjectNow } from '../git/read-git-object.js';
import { parseTree } from '../git/tree-object.js';
import { parseCommit } from '../git/parse-commit.js';
import { isGitfleetError } from '../../core/model/gitfleet-error.js';
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

/** Returns the commit id a ref resolves to and every fleet file of that commit, sorted by path. */
export async function readGitSource(opts: {
  dir: string;
  ref?: string;
}): Promise<{ commit: string; files: SourceFile[] }> {
  const ref = opts.ref ?? 'HEAD';
  const gitdir = findGitdir(opts.dir);
  const repo: GitSourceRepo = { dir: opts.dir, gitdir, fs: objectStoreFs(gitdir), cache: {} };
  const { commit, treeOid } = await resolveCommitTree(repo, ref);
  const blobs: { path: string; oid: string }[] = [];
  await listFleetBlobs(repo, treeOid, '', blobs);
  blobs.sort((a, b) => comparePaths(a.path, b.path));
  const files: SourceFile[] = [];
  for (let i = 0; i < blobs.length; i += READ_BATCH) {
    const batch = blobs.slice(i, i + READ_BATCH);
    const read = await Promise.all(
      batch.map((b) => readingObject(() => Promise.resolve(readBlob(repo, b.oid, b.path)))),
    );
    batch.forEach((b, j) => files.push({ path: b.path, content: decodeSourceText(read[j]!, b.path) }));
  }
  return { commit, files };
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
): Promise<{ commit: string; treeOid: string }> {
  return readCommitTree(repo, ref, await resolveToOid(repo, ref));
}

async function readCommitTree(
  repo: GitSourceRepo,
  ref: string,
  oid: string,
): Promise<{ commit: string; treeOid: string }> {
  try {
    const read = await readingObject(() => Promise.resolve(peelToCommit(repo, oid)));
    return { commit: read.oid, treeOid: read.tree };
  } catch (e) {
    if (isGitfleetError(e, 'MissingObject')) {
      throw new GitSourceError('RefNotFound', `ref '${ref}': not found in ${repo.dir} (no object ${oid})`);
    }
    if (e instanceof NotACommit) {
      throw new GitSourceError('NotACommit', `ref '${ref}': ${oid} in ${repo.dir} is not a commit`);
    }
    throw e;
  }
}

class NotACommit extends Error {}

/** Returns the commit an id names, annotated tags peeled down to it, and the commit's tree. */
function peelToCommit(repo: GitSourceRepo, start: string): { oid: string; tree: string } {
  let oid = start;
  for (let depth = 0; depth < 16; depth++) {
    const object = readGitObjectNow(repo, oid);
    if (object.type === 'commit') {
      const tree = parseCommit(object.content).tree;
      if (tree === undefined)
        throw new GitSourceError('CorruptObject', `commit ${oid} in ${repo.dir}: no tree line`);
      return { oid, tree };
    }
    const text = object.content.toString('utf8');
    const target = object.type === 'tag' ? /^object ([0-9a-f]{40})$/m.exec(text)?.[1] : undefined;
    if (target === undefined) throw new NotACommit();
    oid = target;
  }
  throw new NotACommit();
}

/** Returns a blob's content; an object of another type where the tree names a file is damage. */
function readBlob(repo: GitSourceRepo, oid: string, path: string): Buffer {
  const object = readGitObjectNow(repo, oid);
  if (object.type !== 'blob') {
    throw new GitSourceError(
      'CorruptObject',
      `${path}: ${oid} in ${repo.dir} is a ${object.type}, not a file`,
    );
  }
  return object.content;
}

async function listFleetBlobs(
  repo: GitSourceRepo,
  treeOid: string,
  prefix: string,
  out: { path: string; oid: string }[],
): Promise<void> {
  const tree = await readingObject(() => Promise.resolve(readTree(repo, treeOid)));
  const subtrees: Promise<void>[] = [];
  for (const entry of tree) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.mode === '40000') {
      if (isFleetSourceDirectory(entry.name)) subtrees.push(listFleetBlobs(repo, entry.oid, path, out));
    } else if (isFleetSourceFile(path, entry.mode)) {
      out.push({ path, oid: entry.oid });
    }
  }
  await Promise.all(subtrees);
}

function readTree(repo: GitSourceRepo, oid: string): ReturnType<typeof parseTree> {
  const object = readGitObjectNow(repo, oid);
  if (object.type !== 'tree') {
    throw new GitSourceError('CorruptObject', `tree ${oid} in ${repo.dir}: a ${object.type}, not a tree`);
  }
  return parseTree(object.content, oid);
}

/** Returns what the read returns; a corrupt object (its message names it and the repository) becomes a GitSourceError. */
async function readingObject<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (isGitfleetError(e, 'CorruptObject') && !(e instanceof GitSourceError)) {
      throw new GitSourceError('CorruptObject', e.message);
    }
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
