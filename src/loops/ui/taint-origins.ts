// Who put each taint on a cluster, and when, for the cluster page. Git holds both answers:
//
// | taint                 | where it is kept                                      | who added it, when                  |
// |-----------------------|-------------------------------------------------------|-------------------------------------|
// | kept by the hub       | `.gitfleet/failover/clusters/<cluster>.yaml` of the   | the bindings commit whose           |
// |                       | bindings branch, with timeAdded (cluster-taints.ts)   | `Gitfleet-Taint: <cluster> +<taint>: why` trailer added it (the newest such) |
// | in the Cluster's spec | the registration in the fleet repository              | the source commit that wrote it: the oldest of the first parents whose file still has it |
//
// Both walks follow first parents from the head and stop after `limit` commits: a taint added
// further back is shown with its time (a hub taint's timeAdded) and without its commit.
import yaml from 'js-yaml';
import { openObjectStore, type ObjectStore } from '../../adapters/git/object-store.js';
import { readBlobTextNow, readCommitNow, readTreePathNow } from '../../adapters/git/read-typed-object.js';
import { treeMode } from '../../adapters/git/tree-object.js';
import type { Taint } from '../../core/model/cluster.js';
import { isMap } from '../../core/model/kube-object.js';
import { parseTrailers } from '../../core/publish/commit-trailers.js';
import { formatTaint } from '../../core/schedule/find-untolerated-taint.js';

/** The commit that added a taint. */
export interface TaintOrigin {
  commit: string;
  /** The committer time, RFC 3339. */
  time: string;
  /** The hub's words (the trailer's value), or the source commit's subject. */
  message: string;
  /** The source commit's author (spec taints). */
  author?: string;
}

/** How many commits a walk reads at most. */
export const taintWalkLimit = 1000;

interface CommitFacts {
  tree: string;
  parent: string | undefined;
  message: string;
  time: string;
  author: string;
}

function readCommitFacts(store: ObjectStore, oid: string): CommitFacts {
  const commit = readCommitNow(store, oid);
  return {
    tree: commit.tree,
    parent: commit.parents[0],
    message: commit.message,
    time: new Date((commit.committer?.timestamp ?? 0) * 1000).toISOString(),
    author: commit.author?.name ?? '',
  };
}

/** Returns, per taint (formatTaint), the bindings commit whose Gitfleet-Taint trailer added it. */
export function hubTaintOrigins(input: {
  gitdir: string;
  bindingsHead: string;
  cluster: string;
  taints: readonly Taint[];
  limit?: number;
}): Map<string, TaintOrigin> {
  const store = openObjectStore(input.gitdir);
  const wanted = new Map(input.taints.map((t) => [`${input.cluster} +${formatTaint(t)}:`, formatTaint(t)]));
  const found = new Map<string, TaintOrigin>();
  let oid: string | undefined = input.bindingsHead;
  for (let n = 0; oid && n < (input.limit ?? taintWalkLimit) && found.size < wanted.size; n++) {
    const commit = readCommitFacts(store, oid);
    for (const value of parseTrailers(commit.message).get('Gitfleet-Taint') ?? [])
      for (const [prefix, taint] of wanted)
        if (!found.has(taint) && value.startsWith(prefix))
          found.set(taint, { commit: oid, time: commit.time, message: value });
    oid = commit.parent;
  }
  return found;
}

/** Returns the source commit that wrote a spec taint into a Cluster's file: the oldest first parent whose file still has it. */
export function specTaintOrigin(input: {
  gitdir: string;
  sourceCommit: string;
  file: string;
  cluster: string;
  taint: Taint;
  limit?: number;
}): TaintOrigin | undefined {
  const store = openObjectStore(input.gitdir);
  let added: { oid: string; commit: CommitFacts } | undefined;
  let lastBlob: string | undefined;
  let oid: string | undefined = input.sourceCommit;
  // Ends at the commit before the taint was written (or the first commit): `added` wrote it.
  for (let n = 0; oid; n++) {
    if (n >= (input.limit ?? taintWalkLimit)) return undefined;
    const commit = readCommitFacts(store, oid);
    const blob = blobAt(store, commit.tree, input.file);
    if (blob === undefined) break;
    if (blob !== lastBlob && !hasTaint(store, blob, input.cluster, input.taint)) break;
    lastBlob = blob;
    added = { oid, commit };
    oid = commit.parent;
  }
  if (!added) return undefined;
  return {
    commit: added.oid,
    time: added.commit.time,
    message: added.commit.message.split('\n', 1)[0] ?? '',
    author: added.commit.author,
  };
}

// The blob at a path of a tree (a directory or a submodule there is none).
function blobAt(store: ObjectStore, tree: string, path: string): string | undefined {
  const entry = readTreePathNow(store, tree, path);
  return entry === undefined || entry.mode === treeMode || entry.mode === '160000' ? undefined : entry.oid;
}

// Whether the Cluster document of that name in the file has the taint (same key and effect).
function hasTaint(store: ObjectStore, blob: string, cluster: string, taint: Taint): boolean {
  let docs: unknown[];
  try {
    docs = yaml.loadAll(readBlobTextNow(store, blob), undefined, {
      schema: yaml.CORE_SCHEMA,
    });
  } catch {
    return false;
  }
  return docs.some(
    (d) =>
      isMap(d) &&
      d.kind === 'Cluster' &&
      isMap(d.metadata) &&
      d.metadata.name === cluster &&
      isMap(d.spec) &&
      Array.isArray(d.spec.taints) &&
      d.spec.taints.some((t) => isMap(t) && t.key === taint.key && t.effect === taint.effect),
  );
}
