// What every step of one hub pass shares.
import type { GitObject } from '../../adapters/git/git-object.js';
import { buildTreeFromScratch } from '../../adapters/git/build-tree-from-scratch.js';
import { makeCommit, type GitSignature } from '../../adapters/git/make-commit.js';
import { parseTree } from '../../adapters/git/tree-object.js';
import { editTree } from './edit-tree.js';
import type { HubPassCache } from './hub-pass-cache.js';
import type { RefMove } from '../shared/hub-repo.js';
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

/** Returns a commit by the pass's author, remembered in the pass cache for the next pass. */
export function commitOfPass(
  ctx: PassContext,
  input: { tree: string; parent: string | null; message: string },
): GitObject {
  const commit = makeCommit({
    tree: input.tree,
    parents: input.parent ? [input.parent] : [],
    author: ctx.author,
    message: input.message,
  });
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
