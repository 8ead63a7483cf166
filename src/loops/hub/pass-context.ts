// What every step of one hub pass shares.
import type { GitObject } from '../../adapters/git/git-object.js';
import { buildTreeFromScratch } from '../../adapters/git/build-tree-from-scratch.js';
import { makeCommit, type GitSignature } from '../../adapters/git/make-commit.js';
import { signCommit, type CommitSigner } from '../../adapters/signing/commit-signer.js';
import { committedAt } from '../../adapters/git/parse-commit.js';
import { isSignedBy } from '../../adapters/signing/is-signed-by.js';
import { signerVerifier } from '../../adapters/signing/signer-verifier.js';
import { readCommitBytes } from '../../adapters/git/read-typed-object.js';
import { parseTree } from '../../adapters/git/tree-object.js';
import { editTree } from './edit-tree.js';
import type { HubPassCache } from './hub-pass-cache.js';
import type { RefMove } from '../../core/model/ref-move.js';
import type { SourceCommit } from './hub-pass-result.js';
import type { ReadContext } from './read-git-state.js';
import type { TextBlobs } from './text-blobs.js';

export interface PassContext extends ReadContext {
  blobs: TextBlobs;
  /** Blob ids the repository is known to hold (files of the branches' current trees): not written again. */
  known: Set<string>;
  /** Author and committer of every commit of the pass. */
  author: GitSignature;
  sourceCommit: SourceCommit;
  /** Signs every commit of the pass (`hub --signing-key`); absent: the commits are unsigned. */
  signer?: CommitSigner;
  /** The cluster branches this pass leaves holding its render: HubPassCache.branches once the refs moved. */
  branches: HubPassCache['branches'];
}

/** One branch a pass moves, and the objects its new commit needs. */
export interface BranchWrite {
  move: RefMove;
  objects: GitObject[];
}

/** Returns the blobs of the given ids that the repository does not hold yet. */
export function newBlobs(ctx: PassContext, oids: Iterable<string>): GitObject[] {
  const blobs: GitObject[] = [];
  for (const oid of new Set(oids)) if (!ctx.known.has(oid)) blobs.push(ctx.blobs.blob(oid));
  return blobs;
}

/** Returns a commit by the pass's author, signed with the pass's key if it has one, remembered in the pass cache for the next pass. */
export async function commitOfPass(
  ctx: PassContext,
  input: { tree: string; parent: string | null; message: string },
): Promise<GitObject> {
  const unsigned = makeCommit({
    tree: input.tree,
    parents: input.parent ? [input.parent] : [],
    author: ctx.author,
    message: input.message,
  });
  const commit = await signCommit(unsigned, ctx.signer);
  ctx.cache.commits.set(commit.oid, { tree: input.tree, message: input.message });
  return commit;
}

/**
 * Returns the tree holding `files`: edited from the current tree (only the directories on
 * changed paths are rebuilt), or built whole for a new branch; its files and the entries of
 * every tree made are remembered for the next pass.
 */
export async function treeOfPass(
  ctx: PassContext,
  input: {
    base: string | null;
    files: ReadonlyMap<string, string>;
    changes: readonly { path: string; oid: string | null }[];
  },
): Promise<{ root: string; objects: GitObject[] }> {
  const built = input.base
    ? await editTree(ctx, input.base, input.changes)
    : rememberTrees(ctx, buildTreeFromScratch(input.files));
  ctx.cache.treeFiles.set(built.root, input.files);
  return { root: built.root, objects: built.newObjects };
}

function rememberTrees<T extends { newObjects: GitObject[] }>(ctx: PassContext, built: T): T {
  for (const o of built.newObjects)
    if (o.type === 'tree') ctx.cache.treeEntries.set(o.oid, parseTree(o.content, o.oid));
  return built;
}

// Per signer, whether a commit is signed with its key (commit ids never change their content).
const signedWith = new WeakMap<CommitSigner, Map<string, boolean>>();

/**
 * Returns whether the hub's commit `commit` needs signing again: there is a signer, and the
 * commit does not verify with its key (an older key, after a rotation, none, or a forgery). The hub then
 * writes the same tree again, signed, so readers can stop trusting the old key
 * (docs/security.md#rotating-the-hubs-key).
 */
export async function needsSignature(
  ctx: Pick<ReadContext, 'store'> & { signer?: CommitSigner },
  commit: string,
): Promise<boolean> {
  const signer = ctx.signer;
  if (signer === undefined) return false;
  let known = signedWith.get(signer);
  if (known === undefined) signedWith.set(signer, (known = new Map()));
  let signed = known.get(commit);
  if (signed === undefined) {
    const content = await readCommitBytes(ctx.store, commit);
    // Verified, not only named: a signature copied from one of the hub's commits onto a forged
    // one names the key too. Judged at the commit's time: the hub signs with its own clock.
    signed =
      (await isSignedBy(content, signer)) &&
      (await (await signerVerifier(signer)).verify({ oid: commit, content }, committedAt(content))).ok;
    if (known.size >= 100_000) known.clear();
    known.set(commit, signed);
  }
  return !signed;
}
