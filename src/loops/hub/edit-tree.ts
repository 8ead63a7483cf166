// Incremental tree edits for the hub, through the pass cache. A running hub edits the trees it
// built in its previous pass: tree entries are read once and remembered by id (trees never
// change), those of the trees the hub builds itself included, so an edit costs the directories
// on the changed paths without a repository read (adapters/git/build-tree.ts reads every tree
// on a changed path through isomorphic-git, ~2-3 ms a read).
import { editTree as editTreeIn, type TreeChange } from '../../adapters/git/build-tree.js';
import type { BuiltTree } from '../../adapters/git/build-tree-from-scratch.js';
import { readTreeEntriesCached, type ReadContext } from './read-git-state.js';

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
