// Which objects a push must send: every commit from the new tips back to a commit the remote
// advertised, and for each such commit the trees and blobs that differ from its first
// parent's tree, path by path. The cost grows with what changed, not with the size of the
// trees: an unchanged subtree is one comparison of two ids.
//
// Why that is enough: the first parent is either on the remote (and a remote repository holds
// everything its commits reach) or sent by this push, its own differences walked the same way
// down to a root commit, whose whole tree is sent. A tree already walked is complete, so a
// tree met twice is walked once. Objects the remote holds at other paths may be sent again;
// the remote ignores duplicates. Gitlinks (submodule commits) are never sent.
import { commitOf, treeOf } from '../git/read-typed-object.js';
import { treeMode, type TreeEntry } from '../git/tree-object.js';
import type { ObjectReader } from './object-reader.js';

const gitlinkMode = '160000';

export interface ObjectsToPushInput {
  reader: ObjectReader;
  /** The commits the refs will point at. */
  tips: readonly string[];
  /** Commit ids the remote advertised: the walk stops there. */
  remoteHas: ReadonlySet<string>;
}

/** Returns the ids of the commits, trees and blobs to send, each once. */
export async function listObjectsToPush(input: ObjectsToPushInput): Promise<string[]> {
  const send = new Set<string>();
  const commits = await commitsToSend(input);
  for (const commit of commits) {
    send.add(commit.oid);
    const base = await firstParentTree(input.reader, commit.parents[0]);
    await addTreeDifference(input.reader, send, commit.tree, base);
  }
  return [...send];
}

interface CommitFacts {
  oid: string;
  tree: string;
  parents: string[];
}

async function commitsToSend(input: ObjectsToPushInput): Promise<CommitFacts[]> {
  const found: CommitFacts[] = [];
  const seen = new Set<string>();
  const queue = [...input.tips];
  for (let oid = queue.pop(); oid !== undefined; oid = queue.pop()) {
    if (seen.has(oid) || input.remoteHas.has(oid)) continue;
    seen.add(oid);
    const facts = await readCommit(input.reader, oid);
    found.push(facts);
    queue.push(...facts.parents);
  }
  return found;
}

async function readCommit(reader: ObjectReader, oid: string): Promise<CommitFacts> {
  const { tree, parents } = commitOf(oid, await reader.read(oid));
  return { oid, tree, parents };
}

/** The first parent's tree, or null for a root commit or a parent this repository lacks. */
async function firstParentTree(reader: ObjectReader, parent: string | undefined): Promise<string | null> {
  if (parent === undefined) return null;
  try {
    return (await readCommit(reader, parent)).tree;
  } catch {
    return null; // then everything under the tree is sent: more than needed, never less
  }
}

async function addTreeDifference(
  reader: ObjectReader,
  send: Set<string>,
  tree: string,
  base: string | null,
): Promise<void> {
  if (tree === base || send.has(tree)) return;
  send.add(tree);
  const entries = await readTreeEntries(reader, tree);
  const baseEntries = new Map(
    (base === null ? [] : await readTreeEntries(reader, base)).map((e) => [e.name, e]),
  );
  for (const entry of entries) {
    const before = baseEntries.get(entry.name);
    if (before?.oid === entry.oid) continue; // the remote has it, or this push sends it
    if (entry.mode === treeMode) {
      await addTreeDifference(reader, send, entry.oid, before?.mode === treeMode ? before.oid : null);
    } else if (entry.mode !== gitlinkMode) send.add(entry.oid);
  }
}

async function readTreeEntries(reader: ObjectReader, oid: string): Promise<TreeEntry[]> {
  return treeOf(oid, await reader.read(oid));
}
