// One commit of a person's change on a new branch of a local repository, for review (what
// `gitfleet cluster join` and `leave` propose): the files changed on top of a base commit, the
// objects written, and the branch created by compare-and-swap from nothing, so an existing
// branch is never moved. No working tree and no index are touched: the person's checkout stays
// as it was, and they push the branch when they choose.
import type { GitObject } from './git-object.js';
import { GitWriteError } from './git-write-error.js';
import { toGitObject } from './hash-object.js';
import { buildTree } from './build-tree.js';
import { makeCommit, type GitSignature } from './make-commit.js';
import { readRef } from './read-ref.js';
import { updateRef } from './update-ref.js';
import { writeObjects } from './write-objects.js';

/** A file to write (its text) or, with `text` null, to remove. */
export interface FileEdit {
  path: string;
  text: string | null;
}

/** Returns the new commit's id after writing it and creating `branch` (a full ref) at it; refuses a branch that exists. */
export async function commitToNewBranch(opts: {
  gitdir: string;
  /** The commit the change is made on, and its tree. */
  parent: string;
  parentTree: string;
  edits: readonly FileEdit[];
  branch: string;
  author: GitSignature;
  message: string;
  /** Signs the commit (the person's key), or leaves it as it is. */
  sign?: (commit: GitObject) => Promise<GitObject>;
}): Promise<string> {
  const existing = await readRef(opts.gitdir, opts.branch);
  if (existing !== null) {
    throw new GitWriteError(
      'RefConflict',
      `${opts.branch}: already exists (at ${existing.slice(0, 12)}); delete it or choose another branch`,
    );
  }
  const blobs = opts.edits.flatMap((e) =>
    e.text === null ? [] : [{ path: e.path, blob: toGitObject('blob', Buffer.from(e.text, 'utf8')) }],
  );
  const tree = await buildTree({
    gitdir: opts.gitdir,
    base: opts.parentTree,
    changes: opts.edits.map((e) => ({
      path: e.path,
      oid: e.text === null ? null : blobs.find((b) => b.path === e.path)!.blob.oid,
    })),
  });
  const unsigned = makeCommit({
    tree: tree.root,
    parents: [opts.parent],
    author: opts.author,
    message: opts.message,
  });
  const commit = opts.sign ? await opts.sign(unsigned) : unsigned;
  await writeObjects({
    gitdir: opts.gitdir,
    objects: [...blobs.map((b) => b.blob), ...tree.newObjects, commit],
  });
  await updateRef({ gitdir: opts.gitdir, ref: opts.branch, newOid: commit.oid, expectedOld: null });
  return commit.oid;
}
