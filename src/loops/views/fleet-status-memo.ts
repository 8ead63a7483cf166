// What readFleetStatus may keep from one read of a repository to the next: the dashboard and
// `status --watch` read again each time a ref moves, and most of what they read has not changed.
// Every entry is keyed by a git object id (or, for the templates' labels, a source commit id),
// so it never goes stale: a tree's `.yaml` files, a commit's fields, what a blob of the bindings
// branch or of a status branch holds once parsed. Each read sweeps what it did not use
// (MemoMap), so the memo holds what the last read used, never the history: a second read after
// one branch moved reads and parses the trees and blobs that changed, and little else.
import type { BindingView } from '../../core/publish/binding-record.js';
import type { Cluster } from '../../core/model/cluster.js';
import type { EvictionTaskView } from '../../core/status/eviction-task-view.js';
import type { ObjectStatusRecord } from '../../core/status/status-branch.js';
import { MemoMap } from '../runtime/memo-map.js';
import type { TreeEntry } from '../../adapters/git/tree-object.js';

/** One `.yaml` file under a tree: its path below that tree and its blob id. */
export interface TreeFile {
  path: string;
  oid: string;
}

/** What the status views read of a commit. */
export interface CommitRead {
  tree: string;
  parents: string[];
  message: string;
  /** The committer time, RFC 3339 in UTC. */
  time?: string;
}

/** What one file of the bindings branch holds: a binding record's view and eviction tasks, or neither. */
export interface BindingFile {
  view: BindingView | undefined;
  evictions: readonly EvictionTaskView[];
}

/** The source commit's templates' labels and branch prefix, or why they are unknown. */
export interface SourceRead {
  commit?: string;
  branchPrefix?: string;
  labels?: Map<string, Record<string, string>>;
  /** The registered clusters, when the labels were asked for (the whole fleet was loaded). */
  clusters?: Cluster[];
  /** Template refKey → the strategy that rolls it out (`ns/name` or `name`), when the labels were asked for. */
  rolledOutBy?: Map<string, string>;
  /** Cluster → URL of its status repository (none: the fleet repository), from the FleetConfig and the Clusters. */
  statusAssignment?: Map<string, string>;
  error?: string;
}

/** The facts kept between reads, each keyed by an object id. */
export interface FleetStatusMemo {
  /** tree id → its subtrees and `.yaml` files (submodules left out). */
  trees: MemoMap<string, readonly TreeEntry[]>;
  commits: MemoMap<string, CommitRead>;
  /** blob id (a file of the bindings branch) → what it holds. */
  bindings: MemoMap<string, BindingFile>;
  /** blob id (an object file of a status branch) → its record; null when it holds none. */
  records: MemoMap<string, ObjectStatusRecord | null>;
  /** `<commit> <labels|prefix>` → what loading that source commit gave. */
  sources: MemoMap<string, SourceRead>;
}

/** Returns an empty memo, for a caller that reads the same repository again and again. */
export function createFleetStatusMemo(): FleetStatusMemo {
  return {
    trees: new MemoMap(),
    commits: new MemoMap(),
    bindings: new MemoMap(),
    records: new MemoMap(),
    sources: new MemoMap(),
  };
}

/** Drops what the last read did not use; returns how many entries are left. */
export function sweepFleetStatusMemo(memo: FleetStatusMemo): number {
  const maps = [memo.trees, memo.commits, memo.bindings, memo.records, memo.sources];
  let left = 0;
  for (const map of maps) {
    map.sweep();
    left += map.size;
  }
  return left;
}
