// What a long-running hub remembers between passes, so an incremental pass does not read or
// hash again what did not change. Every entry is a fact keyed by a git object id or by content
// (a commit's tree, a tree's files, a text's blob id), so it can never be stale: a pass with a
// cold cache computes the same result, only slower. Entries the last pass did not use are
// dropped after it (MemoMap.sweep), so memory follows the size of the fleet, not its history.
import type { RolloutCache } from './rollout-memo.js';
import type { InterpreterSession } from '../../adapters/lua/interpreter-session.js';
import type { TreeEntry } from '../../adapters/git/tree-object.js';
import type { LoadMemo } from '../../core/load/load-fleet.js';
import type { Binding, PreviousBinding } from '../../core/model/binding.js';
import type { ClusterOutput } from '../../core/render/cluster-output.js';
import type { RenderMemo } from '../../core/render/render-memo.js';
import type { AgentReport } from '../../core/status/status-branch.js';
import { MemoMap } from '../runtime/memo-map.js';

/** A text rendered at a path, and its blob id. */
export interface RenderedText {
  text: string;
  oid: string;
}

/** A binding as the last pass recorded it. */
export interface RecordedBinding {
  binding: Binding;
  path: string;
  json: string;
  status: string;
  text: string;
  oid: string;
}

/** A commit's tree and message. */
export interface CommitInfo {
  tree: string;
  message: string;
}

export interface HubPassCache {
  /** Commit id → tree and message. */
  commits: MemoMap<string, CommitInfo>;
  /** Tree id → its entries. */
  treeEntries: MemoMap<string, readonly TreeEntry[]>;
  /** Tree id → every file under it (path → blob id). */
  treeFiles: MemoMap<string, ReadonlyMap<string, string>>;
  /** Branch (cluster name, or '' for the bindings) → path → what the last pass rendered there. */
  renderedTexts: Map<string, Map<string, RenderedText>>;
  /** Binding key → the binding (the object, and as JSON) the last pass recorded, with its status, record path, text and blob id. */
  recordTexts: Map<string, RecordedBinding>;
  /**
   * Cluster branch ref → its head after the last pass that left it holding exactly that pass's
   * render, and that render's output: a branch still at that head, given an output derived
   * from that one, is planned at the changed paths only.
   */
  branches: Map<string, { head: string; output: ClusterOutput }>;
  /** The object reader's cache marker (object-store.ts, object-databases.ts): which repositories it read. */
  packs: object;
  /** `directory\0tree id` → the fleet files under that source tree (path and blob id). */
  sourceBlobs: MemoMap<string, readonly { path: string; oid: string }[]>;
  /** Source blob id → its text. */
  sourceTexts: MemoMap<string, string>;
  /** Binding record blob id → the previous binding it holds (null: not a claim record). */
  records: MemoMap<string, PreviousBinding | null>;
  /** Status branch commit → the agent report it holds (null: unreadable). */
  reports: MemoMap<string, AgentReport | null>;
  /** Set once the persisted memo was looked for (hub-memo.ts): a cache is filled from it at most once. */
  memoRead?: boolean;
  /**
   * Set by a pass with `persistMemo: 'deferred'` that moved refs: the prefix and the refs it
   * left, for the memo its caller writes later (saveDeferredHubMemo, when the hub loop is idle).
   */
  memoPending?: { prefix: string; refs: Record<string, string> };
  /** What each source file gave the last load: an unchanged file is not parsed again. */
  loadMemo?: LoadMemo;
  /** The last render's rendered objects by content key: an incremental render reuses them. */
  renderMemo?: RenderMemo;
  /** The resource interpreter of the fleets loaded so far (adapters/lua/interpreter-session.ts). */
  interpreter?: InterpreterSession;
  /** What the last pass's rollout stage computed (loops/hub/hub-rollout.ts), when the fleet has rollouts. */
  rollout?: RolloutCache;
}

/** Returns an empty cache. */
export function createHubPassCache(): HubPassCache {
  return {
    commits: new MemoMap(),
    treeEntries: new MemoMap(),
    treeFiles: new MemoMap(),
    renderedTexts: new Map(),
    recordTexts: new Map(),
    branches: new Map(),
    packs: {},
    records: new MemoMap(),
    reports: new MemoMap(),
    sourceBlobs: new MemoMap(),
    sourceTexts: new MemoMap(),
  };
}

/** Forgets what the pass that just ended did not use. */
export function sweepHubPassCache(cache: HubPassCache): void {
  forgetOlderDerivations(cache);
  cache.commits.sweep();
  cache.treeEntries.sweep();
  cache.treeFiles.sweep();
  cache.records.sweep();
  cache.reports.sweep();
  cache.sourceBlobs.sweep();
  cache.sourceTexts.sweep();
}

/**
 * Cuts the outputs the cache keeps from the outputs before the ones they were derived from. An
 * output derived from the last pass's (`derived.from`) is planned at the changed paths only, and
 * only that one step is ever read; but each `from` is itself derived from the pass before it, so
 * without a cut every pass's output (its files, its changed paths) stays reachable and the hub's
 * heap grows with its history. An output whose `derived` is cut is planned whole if it is used
 * again: slower, never wrong.
 */
function forgetOlderDerivations(cache: HubPassCache): void {
  const kept: ClusterOutput[] = [];
  for (const { output } of cache.branches.values()) kept.push(output);
  for (const { output } of cache.renderMemo?.clusters.values() ?? []) kept.push(output);
  for (const edited of cache.rollout?.outputs.values() ?? []) kept.push(edited.render, edited.output);
  for (const { output } of cache.rollout?.looks.values() ?? []) kept.push(output);
  const previous = new Set<ClusterOutput>();
  for (const output of kept) if (output.derived) previous.add(output.derived.from);
  for (const output of previous) delete output.derived;
}
