// Incremental tree edits for the hub, through the pass cache. A running hub edits the trees it
// built in its previous pass: tree entries are read once and remembered by id (trees never
// change), those of the trees the hub builds itself included, so an edit costs the directories
// on the changed paths without a repository read (adapters/git/build-tree.ts reads every tree
// on a changed path through isomorphic-git, ~2-3 ms a read).
import { editTree as editTreeIn, type TreeChange } from '../../adapters/git/build-tree.js';
import type { BuiltTree } from '../../adapters/git/build-tree-from-scratch.js';
import { GitWriteError } from '../../adapters/git/git-write-error.js';
import { parseTree, type TreeEntry } from '../../adapters/git/tree-object.js';
import { memoize } from '../runtime/memo-map.js';
import { readStoredObject } from '../../adapters/git/object-store.js';
import type { ReadContext } from './read-git-state.js';

/**
 * Returns the root tree after the changes to `base` and the tree objects made for it.
 * Directories left empty disappear; an empty root is the empty tree.
 */
export function editTree(ctx: ReadContext, base: string, changes: readonly TreeChange[]): Promise<BuiltTree> {
  return editTreeIn(
    {
      entries: (oid) => readTreeEntriesCached(ctx, oid),
      made: (oid, entries) => ctx.cache.treeEntries.set(oid, entries),
    },
    base,
    changes,
  );
}

/** Returns the entries of a tree, read once per id. */
export function readTreeEntriesCached(ctx: ReadContext, oid: string): Promise<readonly TreeEntry[]> {
  return memoize(ctx.cache.treeEntries, oid, async () => {
    const object = await readStoredObject(ctx.store, oid);
    if (object.type !== 'tree')
      throw new GitWriteError('WrongObjectType', `${oid}: a ${object.type}, not a tree`);
    return parseTree(object.content, oid);
  });
}
