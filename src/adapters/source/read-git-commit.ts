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
import { findHeadDir, findLocalGitdir } from './find-local-gitdir.js';
import { resolveRevision } from './resolve-revision.js';
import { escapeText } from '../../core/model/quote-text.js';
import { comparePaths } from '../../core/load/compare-paths.js';
import { isFleetSourceDirectory, isFleetSourcePath } from '../../core/load/is-fleet-source-path.js';
import type { SourceFile } from '../../core/load/load-fleet.js';
import { decodeSourceText } from './decode-source-text.js';
import { objectStoreFs } from '../git/object-store-fs.js';
import { readGitObjectNow } from '../git/read-git-object.js';
import { commitOf, readBlobNow, readTreeNow } from '../git/read-typed-object.js';
import { isGitfleetError } from '../../core/model/gitfleet-error.js';
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
  const headDir = findHeadDir(opts.dir) ?? gitdir;
  const repo: GitSourceRepo = { dir: opts.dir, gitdir, headDir, fs: objectStoreFs(gitdir), cache: {} };
  const { commit, treeOid, message } = await resolveCommitTree(repo, ref);
  const blobs: { path: string; oid: string }[] = [];
  await listFleetBlobs(repo, treeOid, '', blobs);
  blobs.sort((a, b) => comparePaths(a.path, b.path));
  const files: SourceFile[] = [];
  for (let i = 0; i < blobs.length; i += READ_BATCH) {
    const batch = blobs.slice(i, i + READ_BATCH);
    const read = await Promise.all(
      batch.map((b) => readingObject(() => Promise.resolve(readBlobNow(repo, b.oid, b.path)))),
    );
    batch.forEach((b, j) => files.push({ path: b.path, content: decodeSourceText(read[j]!, b.path) }));
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
    const read = await readingObject(() => Promise.resolve(peelToCommit(repo, oid)));
    return { commit: read.oid, treeOid: read.tree, message: read.message };
  } catch (e) {
    if (isGitfleetError(e, 'MissingObject')) {
      throw new GitSourceError(
        'RefNotFound',
        `revision '${escapeText(ref)}' in ${repo.dir}: names no commit (no object ${oid})`,
      );
    }
    if (e instanceof NotACommit) {
      throw new GitSourceError(
        'NotACommit',
        `revision '${escapeText(ref)}' in ${repo.dir}: ${oid} is not a commit`,
      );
    }
    throw e;
  }
}

class NotACommit extends Error {}

/** Returns the commit an id names, annotated tags peeled down to it (an object of any type read raw), and the commit's tree. */
function peelToCommit(repo: GitSourceRepo, start: string): { oid: string; tree: string; message: string } {
  let oid = start;
  for (let depth = 0; depth < 16; depth++) {
    const object = readGitObjectNow(repo, oid);
    if (object.type === 'commit') {
      const { tree, message } = commitOf(oid, object, { gitdir: repo.dir });
      return { oid, tree, message };
    }
    const text = object.content.toString('utf8');
    const target = object.type === 'tag' ? /^object ([0-9a-f]{40})$/m.exec(text)?.[1] : undefined;
    if (target === undefined) throw new NotACommit();
    oid = target;
  }
  throw new NotACommit();
}

async function listFleetBlobs(
  repo: GitSourceRepo,
  treeOid: string,
  prefix: string,
  out: { path: string; oid: string }[],
): Promise<void> {
  const tree = await readingObject(() => Promise.resolve(readTreeNow(repo, treeOid, prefix)));
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

/**
 * Returns what the read returns; a corrupt object, or one of another type than the tree or
 * commit names (its message names it and the repository), becomes a GitSourceError.
 */
async function readingObject<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    const damaged = isGitfleetError(e, 'CorruptObject') || isGitfleetError(e, 'WrongObjectType');
    if (damaged && !(e instanceof GitSourceError)) {
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
