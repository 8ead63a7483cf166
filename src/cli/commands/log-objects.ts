// The git reads of `gitfleet log`, through gitfleet's own object reader (the one the hub and the
// status views read with): refs from the ref files, commits and trees from the object store.
// The reads are synchronous: small positioned reads of open pack files.
import { listRefs } from '../../adapters/git/list-refs.js';
import { openObjectStore, type ObjectStore } from '../../adapters/git/object-store.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { createFleetStatusMemo } from '../../loops/views/fleet-status-memo.js';
import { localGitdir } from '../../adapters/remote/hub-repo.js';
import { readRenderedHeads, readRenderLocations } from '../../loops/views/read-rendered-heads.js';
import {
  readCommitNow,
  readTreeEntryNow,
  readTreeNow,
  type GitCommit,
} from '../../adapters/git/read-typed-object.js';
import type { CommitSignature } from '../../adapters/git/parse-commit.js';
import { treeMode, type TreeEntry } from '../../adapters/git/tree-object.js';
import { isGitfleetError } from '../../core/model/gitfleet-error.js';

/** One `gitfleet log`: the repository's object store and the refs under the prefix, read once. */
export interface LogRepo {
  store: ObjectStore;
  /** Every ref under `refs/heads/<prefix>`, full name → commit id. */
  refs: ReadonlyMap<string, string>;
}

/** Who wrote or committed a commit, and when (seconds since the epoch). */
export interface LogSignature {
  name: string;
  email: string;
  timestamp: number;
}

/** What the log reads of a commit. */
export interface LogCommit {
  tree: string;
  parents: string[];
  author: LogSignature;
  committer: LogSignature;
  message: string;
}

/** Thrown when an id names no commit (missing, or another type): a source commit that is gone. */
export class NoSuchCommit extends Error {}

/**
 * Returns the repository's store and its refs under `refs/heads/<prefix>`, each cluster branch
 * read where the bindings branch records it (a render repository on a local path,
 * loops/views/read-rendered-heads.ts); `unreadable` names the clusters whose render repository
 * cannot be read here (a URL, or a path that is no repository).
 */
export async function openLogRepo(
  gitdir: string,
  prefix: string,
): Promise<LogRepo & { unreadable: ReadonlyMap<string, string> }> {
  const store = openObjectStore(gitdir);
  const refs = await listRefs(gitdir, `refs/heads/${prefix}`);
  const bindings = refs.get(`refs/heads/${prefix}bindings`);
  if (bindings === undefined) return { store, refs, unreadable: new Map() };
  const read = { store, memo: createFleetStatusMemo() };
  const start = `refs/heads/${prefix}clusters/`;
  const rendered = await readRenderedHeads({
    branchPrefix: prefix,
    fleetHeads: new Map(
      [...refs].filter(([ref]) => ref.startsWith(start)).map(([ref, oid]) => [ref.slice(start.length), oid]),
    ),
    locations: readRenderLocations(read, readLogCommit({ store, refs }, bindings).tree),
    open: (url) =>
      isRepoUrl(url)
        ? Promise.reject(
            new Error('a URL: log reads local repositories; clone or fetch it and give its path'),
          )
        : Promise.resolve(localGitdir(url)),
  });
  const all = new Map([...refs].filter(([ref]) => !ref.startsWith(start)));
  for (const [cluster, oid] of rendered.heads) all.set(`${start}${cluster}`, oid);
  return { store: { ...store, also: rendered.gitdirs }, refs: all, unreadable: rendered.unreadable };
}

/** Returns the cluster branches (`<prefix>clusters/<cluster>`), sorted by branch name. */
export function clusterBranches(repo: LogRepo, prefix: string): { cluster: string; branch: string }[] {
  const start = `refs/heads/${prefix}clusters/`;
  return [...repo.refs.keys()]
    .filter((ref) => ref.startsWith(start) && !ref.slice(start.length).includes('/'))
    .map((ref) => ref.slice('refs/heads/'.length))
    .sort()
    .map((branch) => ({ cluster: branch.slice(`${prefix}clusters/`.length), branch }));
}

/** Returns the commit a branch (`<prefix>…`, without refs/heads/) points at, or undefined. */
export function branchHead(repo: LogRepo, branch: string): string | undefined {
  return repo.refs.get(`refs/heads/${branch}`);
}

/** Returns a commit's fields; throws NoSuchCommit when the id names no commit. */
export function readLogCommit(repo: LogRepo, oid: string): LogCommit {
  const commit = readCommitOf(repo, oid);
  return {
    tree: commit.tree,
    parents: commit.parents,
    author: logSignatureOf(commit.author),
    committer: logSignatureOf(commit.committer),
    message: commit.message,
  };
}

function logSignatureOf(signature: CommitSignature | undefined): LogSignature {
  return { name: signature?.name ?? '', email: signature?.email ?? '', timestamp: signature?.timestamp ?? 0 };
}

/** What the walk needs of a commit it may not list: its tree, first parent and committer time. */
export interface CommitHead {
  tree: string;
  parent: string | undefined;
  /** Committer time, seconds since the epoch. */
  time: number;
}

/** Returns a commit's tree, first parent and committer time; throws NoSuchCommit. */
export function readCommitHead(repo: LogRepo, oid: string): CommitHead {
  const commit = readCommitOf(repo, oid);
  return { tree: commit.tree, parent: commit.parents[0], time: commit.committer?.timestamp ?? 0 };
}

// The commit, read by the one reader; a missing object or one of another type is NoSuchCommit.
function readCommitOf(repo: LogRepo, oid: string): GitCommit {
  try {
    return readCommitNow(repo.store, oid);
  } catch (error) {
    if (isGitfleetError(error, 'MissingObject')) throw new NoSuchCommit(`${oid}: no such commit`);
    if (isGitfleetError(error, 'WrongObjectType')) throw new NoSuchCommit(error.message);
    throw error;
  }
}

/**
 * Returns the id of the entry `name` of a tree (a directory or a file), read straight from the
 * tree's bytes without decoding its other entries, or undefined when it has none.
 */
export function treeEntryOid(repo: LogRepo, tree: string, name: string): string | undefined {
  return readTreeEntryNow(repo.store, tree, name)?.oid;
}

/** Returns a tree's entries: subtrees (`tree`), files (`blob`) and submodules (`commit`). */
export function readLogTree(repo: LogRepo, oid: string): { path: string; oid: string; type: string }[] {
  return readTreeNow(repo.store, oid).map((e: TreeEntry) => ({
    path: e.name,
    oid: e.oid,
    type: e.mode === treeMode ? 'tree' : e.mode === '160000' ? 'commit' : 'blob',
  }));
}
