// Incremental passes: the new root tree from the previous one and what changed under it.
// Only the trees on the paths of changed files are read and rewritten; every other subtree
// keeps its id, so the cost of a pass grows with what changed, not with the size of the tree.
import { emptyTreeOid, type GitObject } from './git-object.js';
import { GitWriteError } from './git-write-error.js';
import { toGitObject } from './hash-object.js';
import type { BuiltTree } from './build-tree-from-scratch.js';
import { withCache, type ObjectSource } from './read-git-object.js';
import { readTree } from './read-typed-object.js';
import { splitTreePath } from './split-tree-path.js';
import { encodeTree, fileMode, treeMode, type TreeEntry } from './tree-object.js';

/** A file to set (blob id, mode 100644) or, with `oid` null, a file or directory to remove. */
export interface TreeChange {
  path: string;
  oid: string | null;
}

/** Per directory, what changes under each name: a blob id, a removal, or a nested directory. */
type ChangeNode = Map<string, string | null | ChangeNode>;

/** Where an edit reads the trees it changes, and learns of the trees it makes. */
export interface TreeStore {
  /** Returns the entries of the tree with the given id. */
  entries(oid: string): Promise<readonly TreeEntry[]>;
  /** Told of every tree the edit makes (a caller that caches entries by id keeps them). */
  made?(oid: string, entries: readonly TreeEntry[]): void;
}

/**
 * Returns the root tree after applying the changes to the tree `base` (null: no tree yet) and
 * the tree objects made for it, reading trees from the repository. Directories left empty
 * disappear; an empty root becomes the empty tree. Changes that change nothing give back
 * `base` and no objects.
 */
export function buildTree(
  opts: ObjectSource & { base: string | null; changes: readonly TreeChange[] },
): Promise<BuiltTree> {
  const source = withCache(opts);
  return editTree({ entries: (oid) => readTree(source, oid) }, opts.base, opts.changes);
}

/** Returns the root tree after the changes, as buildTree, reading and reporting trees through `store`. */
export async function editTree(
  store: TreeStore,
  base: string | null,
  changes: readonly TreeChange[],
): Promise<BuiltTree> {
  const made = new Map<string, GitObject>();
  const root = await applyChanges(store, base, toChangeNode(changes), made);
  if (root !== null) return { root, newObjects: [...made.values()] };
  const empty = toGitObject('tree', new Uint8Array(0));
  return { root: emptyTreeOid, newObjects: [...made.values(), empty] };
}

function toChangeNode(changes: readonly TreeChange[]): ChangeNode {
  const top: ChangeNode = new Map();
  for (const change of changes) {
    const parts = splitTreePath(change.path);
    const name = parts.pop()!;
    let node = top;
    for (const part of parts) {
      let next = node.get(part);
      if (next === undefined) {
        next = new Map();
        node.set(part, next);
      }
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

/** Returns the id of the directory after the changes, or null when nothing is left in it. */
async function applyChanges(
  store: TreeStore,
  tree: string | null,
  changes: ChangeNode,
  made: Map<string, GitObject>,
): Promise<string | null> {
  const before = tree === null ? [] : await store.entries(tree);
  const entries = new Map(before.map((e) => [e.name, e]));
  const updates = await Promise.all(
    [...changes].map(async ([name, change]) => {
      if (!(change instanceof Map)) {
        return { name, entry: change === null ? null : { mode: fileMode, name, oid: change } };
      }
      const existing = entries.get(name);
      const subtree = existing?.mode === treeMode ? existing.oid : null;
      const oid = await applyChanges(store, subtree, change, made);
      return { name, entry: oid === null ? null : { mode: treeMode, name, oid } };
    }),
  );
  let changed = false;
  for (const { name, entry } of updates) changed = setEntry(entries, name, entry) || changed;
  if (!changed) return tree;
  if (entries.size === 0) return null;
  const list = [...entries.values()];
  const object = toGitObject('tree', encodeTree(list));
  made.set(object.oid, object);
  store.made?.(object.oid, list);
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
