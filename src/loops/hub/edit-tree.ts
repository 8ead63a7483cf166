// Incremental tree edits for the hub, through the pass cache. adapters/git/build-tree.ts does
// the same edit but reads every tree on a changed path from the repository through
// isomorphic-git (~2-3 ms a read on this machine); a running hub edits the trees it built in
// its previous pass, so here tree entries are read once and remembered by id (trees never
// change), including those of the trees the hub builds itself. Cost: the directories on the
// changed paths, without a repository read when the hub wrote the base.
import { emptyTreeOid, type GitObject } from '../../adapters/git/git-object.js';
import { GitWriteError } from '../../adapters/git/git-write-error.js';
import { toGitObject } from '../../adapters/git/hash-object.js';
import type { TreeChange } from '../../adapters/git/build-tree.js';
import { splitTreePath } from '../../adapters/git/split-tree-path.js';
import { encodeTree, fileMode, parseTree, treeMode, type TreeEntry } from '../../adapters/git/tree-object.js';
import { memoize } from '../runtime/memo-map.js';
import { readStoredObject } from './object-store.js';
import type { ReadContext } from './read-git-state.js';

/** Per directory, what changes under each name: a blob id, a removal (null), or a nested directory. */
type ChangeNode = Map<string, string | null | ChangeNode>;

/**
 * Returns the root tree after the changes to `base` and the tree objects made for it.
 * Directories left empty disappear; an empty root is the empty tree.
 */
export async function editTree(
  ctx: ReadContext,
  base: string,
  changes: readonly TreeChange[],
): Promise<{ root: string; newObjects: GitObject[] }> {
  const made = new Map<string, GitObject>();
  const root = await applyChanges(ctx, base, toChangeNode(changes), made);
  if (root !== null) return { root, newObjects: [...made.values()] };
  return { root: emptyTreeOid, newObjects: [...made.values(), toGitObject('tree', new Uint8Array(0))] };
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

function toChangeNode(changes: readonly TreeChange[]): ChangeNode {
  const top: ChangeNode = new Map();
  for (const change of changes) {
    const parts = splitTreePath(change.path);
    const name = parts.pop()!;
    let node = top;
    for (const part of parts) {
      let next = node.get(part);
      if (next === undefined) node.set(part, (next = new Map()));
      if (!(next instanceof Map)) throw conflict(change.path);
      node = next;
    }
    if (node.has(name)) throw conflict(change.path);
    node.set(name, change.oid);
  }
  return top;
}

function conflict(path: string): GitWriteError {
  return new GitWriteError('PathConflict', `${path}: changed twice, or as both a file and a directory`);
}

async function applyChanges(
  ctx: ReadContext,
  tree: string | null,
  changes: ChangeNode,
  made: Map<string, GitObject>,
): Promise<string | null> {
  const entries = new Map(
    (tree === null ? [] : await readTreeEntriesCached(ctx, tree)).map((e) => [e.name, e]),
  );
  let changed = false;
  for (const [name, change] of changes) {
    let entry: TreeEntry | null;
    if (change instanceof Map) {
      const existing = entries.get(name);
      const oid = await applyChanges(ctx, existing?.mode === treeMode ? existing.oid : null, change, made);
      entry = oid === null ? null : { mode: treeMode, name, oid };
    } else entry = change === null ? null : { mode: fileMode, name, oid: change };
    changed = setEntry(entries, name, entry) || changed;
  }
  if (!changed) return tree;
  if (entries.size === 0) return null;
  const list = [...entries.values()];
  const object = toGitObject('tree', encodeTree(list));
  made.set(object.oid, object);
  ctx.cache.treeEntries.set(object.oid, list);
  return object.oid;
}

/** Sets or removes one entry and returns whether that changed the directory. */
function setEntry(entries: Map<string, TreeEntry>, name: string, entry: TreeEntry | null): boolean {
  const existing = entries.get(name);
  if (entry === null) return entries.delete(name);
  if (existing?.mode === entry.mode && existing.oid === entry.oid) return false;
  entries.set(name, entry);
  return true;
}
