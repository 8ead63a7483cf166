// The git reads of the status views, through gitfleet's own object reader (the one the hub
// reads with: adapters/git/object-store.ts), each fact kept in the read's memo by object id
// (fleet-status-memo.ts): commits, the `.yaml` files of a tree, blob texts. The reads are
// synchronous: they are small positioned reads of open pack files, and a trip through the
// thread pool per object would cost more than the read.
import type { ObjectStore } from '../../adapters/git/object-store.js';
import { readBlobNow, readCommitNow, readTreeNow } from '../../adapters/git/read-typed-object.js';
import { treeMode, type TreeEntry } from '../../adapters/git/tree-object.js';
import type { CommitRead, FleetStatusMemo, TreeFile } from './fleet-status-memo.js';

/** One read: the repository as it is now, and what earlier reads left in the memo. */
export interface FleetRead {
  store: ObjectStore;
  memo: FleetStatusMemo;
}

const decoder = new TextDecoder();

/** Returns a blob's text (UTF-8). */
export function readText(read: FleetRead, oid: string): string {
  return decoder.decode(readBlobNow(read.store, oid));
}

/** Returns a commit's tree, parents, message and committer time. */
export function readCommit(read: FleetRead, oid: string): CommitRead {
  const kept = read.memo.commits.get(oid);
  if (kept !== undefined) return kept;
  const parsed = readCommitNow(read.store, oid);
  const seconds = parsed.committer?.timestamp;
  const commit: CommitRead = {
    tree: parsed.tree,
    parents: parsed.parents,
    message: parsed.message,
    ...(seconds !== undefined ? { time: new Date(seconds * 1000).toISOString() } : {}),
  };
  read.memo.commits.set(oid, commit);
  return commit;
}

/**
 * Returns every `.yaml` file under a tree (paths below it, in git's tree order), submodules left
 * out. A subtree seen in an earlier read is not read again: a status branch whose one namespace
 * changed costs the trees on that path.
 */
export function listYamlFiles(read: FleetRead, tree: string): TreeFile[] {
  const files: TreeFile[] = [];
  collectYamlFiles(read, tree, '', files);
  return files;
}

function collectYamlFiles(read: FleetRead, tree: string, base: string, out: TreeFile[]): void {
  for (const entry of yamlEntries(read, tree)) {
    if (entry.mode === treeMode) collectYamlFiles(read, entry.oid, `${base}${entry.name}/`, out);
    else out.push({ path: base + entry.name, oid: entry.oid });
  }
}

// A tree's subtrees and `.yaml` files, as the memo keeps them.
function yamlEntries(read: FleetRead, tree: string): readonly TreeEntry[] {
  const kept = read.memo.trees.get(tree);
  if (kept !== undefined) return kept;
  const entries = readTreeNow(read.store, tree).filter(
    (e) => e.mode === treeMode || (e.mode !== '160000' && e.name.endsWith('.yaml')),
  );
  read.memo.trees.set(tree, entries);
  return entries;
}
