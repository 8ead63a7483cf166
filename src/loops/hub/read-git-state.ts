// Reads what the hub needs from its own branches: a commit's tree and message, and every file
// of a tree (path → blob id), through the pass cache.
import { readCommit, readTree } from '../../adapters/git/read-typed-object.js';
import { treeMode, type TreeEntry } from '../../adapters/git/tree-object.js';
import { memoize } from '../runtime/memo-map.js';
import type { CommitInfo, HubPassCache } from './hub-pass-cache.js';
import type { ObjectStore } from '../../adapters/git/object-store.js';

/** Where the pass reads: the repository as it was when the pass began, and the pass cache. */
export interface ReadContext {
  store: ObjectStore;
  cache: HubPassCache;
}

/** Returns the tree and message of a commit. */
export function readCommitInfo(ctx: ReadContext, oid: string): Promise<CommitInfo> {
  return memoize(ctx.cache.commits, oid, async () => {
    const { tree, message } = await readCommit(ctx.store, oid);
    return { tree, message };
  });
}

/** Returns the first line of a commit message. */
export function subjectOf(message: string): string {
  return message.split('\n', 1)[0]!.trim();
}

/** Returns the entries of a tree, read once per id. */
export function readTreeEntriesCached(ctx: ReadContext, oid: string): Promise<readonly TreeEntry[]> {
  return memoize(ctx.cache.treeEntries, oid, () => readTree(ctx.store, oid));
}

/** Returns every file under a tree (path → blob id), submodules and subtrees left out. */
export function readTreeFiles(ctx: ReadContext, tree: string): Promise<ReadonlyMap<string, string>> {
  return memoize(ctx.cache.treeFiles, tree, async () => {
    const files = new Map<string, string>();
    const entries = await readTreeEntriesCached(ctx, tree);
    const subtrees = await Promise.all(
      entries.map((e) => (e.mode === treeMode ? readTreeFiles(ctx, e.oid) : undefined)),
    );
    entries.forEach((entry, i) => {
      const sub = subtrees[i];
      if (sub) for (const [path, oid] of sub) files.set(`${entry.name}/${path}`, oid);
      else if (entry.mode !== '160000') files.set(entry.name, entry.oid);
    });
    return files;
  });
}

/** Returns the files of the commit's tree, or none for no commit. */
export async function readCommitFiles(
  ctx: ReadContext,
  commit: string | null,
): Promise<{ tree: string | null; files: ReadonlyMap<string, string> }> {
  if (commit === null) return { tree: null, files: new Map() };
  const { tree } = await readCommitInfo(ctx, commit);
  return { tree, files: await readTreeFiles(ctx, tree) };
}
