// The git reads of the status views, through gitfleet's own object reader (the one the hub
// reads with: adapters/git/object-store.ts), each fact kept in the read's memo by object id
// (fleet-status-memo.ts): commits, the `.yaml` files of a tree, blob texts. The reads are
// synchronous: they are small positioned reads of open pack files, and a trip through the
// thread pool per object would cost more than the read.
import { readStoredObjectNow, type ObjectStore } from '../../adapters/git/object-store.js';
import { parseCommit } from '../../adapters/git/parse-commit.js';
import { parseTree, treeMode, type TreeEntry } from '../../adapters/git/tree-object.js';
import type { CommitRead, FleetStatusMemo, TreeFile } from './fleet-status-memo.js';

/** One read: the repository as it is now, and what earlier reads left in the memo. */
export interface FleetRead {
  store: ObjectStore;
  memo: FleetStatusMemo;
}

const decoder = new TextDecoder();

/** Returns an object's content of the expected type; throws naming the object when it is another. */
function readTyped(read: FleetRead, oid: string, type: 'commit' | 'tree' | 'blob'): Buffer {
  const object = readStoredObjectNow(read.store, oid);
  if (object.type !== type) throw new Error(`${oid}: a ${object.type}, not a ${type}`);
  return object.content;
}

/** Returns a blob's text (UTF-8). */
export function readText(read: FleetRead, oid: string): string {
  return decoder.decode(readTyped(read, oid, 'blob'));
}

/** Returns a commit's tree, parents, message and committer time. */
export function readCommit(read: FleetRead, oid: string): CommitRead {
  const kept = read.memo.commits.get(oid);
  if (kept !== undefined) return kept;
  const text = readTyped(read, oid, 'commit').toString('utf8');
  const parsed = parseCommit(text);
  if (!parsed.tree) throw new Error(`${oid}: a commit without a tree`);
  const time = committerTime(text);
  const commit: CommitRead = {
    tree: parsed.tree,
    parents: parsed.parents,
    message: parsed.message,
    ...(time !== undefined ? { time } : {}),
  };
  read.memo.commits.set(oid, commit);
  return commit;
}

// `committer Name <email> 1700000000 +0000` in the header: the seconds are UTC whatever the zone.
function committerTime(text: string): string | undefined {
  const header = text.slice(0, Math.max(0, text.indexOf('\n\n')));
  const m = /^committer .* (\d+) [+-]\d{4}$/m.exec(header);
  return m ? new Date(Number(m[1]) * 1000).toISOString() : undefined;
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
  const entries = parseTree(readTyped(read, tree, 'tree'), tree).filter(
    (e) => e.mode === treeMode || (e.mode !== '160000' && e.name.endsWith('.yaml')),
  );
  read.memo.trees.set(tree, entries);
  return entries;
}
