// What one hub pass did, as data: the CLI prints it, the loop logs it, tests assert on it.
import type { LoadError } from '../../core/load/load-error.js';
import type { FailoverDecision } from '../../core/model/failover.js';
import type { RolloutDecision } from '../../core/model/rollout.js';
import type { Diagnostic } from '../../core/model/diagnostic.js';

/** The source commit a pass rendered (or tried to). */
export interface SourceCommit {
  /** Full ref name, e.g. `refs/heads/main`. */
  ref: string;
  commit: string;
  subject: string;
  message: string;
  /** Set when the source was verified (hub-source-gate.ts): the bindings commit's Gitfleet-Source-Verified value. */
  verified?: string;
  /** Set when the branch's head was refused and this, the last verified commit, is rendered instead: the Gitfleet-Source-Refused value. */
  refused?: string;
}

/** A source head refused, as the pass result and the bindings branch say it. */
export interface SourceRefusal {
  /** The source head refused. */
  head: string;
  /** The commit that failed (the head, or one in its history), the problem, who signed it (absent: unsigned or unknown). */
  commit: string;
  problem: string;
  signer?: string;
  /** The verdict in words, commit first. */
  reason: string;
  /** The bindings commit that records the refusal; null when it was recorded before. */
  recorded: string | null;
}

/** What happened to one cluster branch. */
export type ClusterPassOutcome =
  /** The branch already holds exactly the render: nothing written. */
  | { type: 'unchanged'; objects: number }
  | { type: 'updated'; commit: string; objects: number; added: number; changed: number; removed: number }
  /** The mass-deletion guard refused the render: the branch keeps its last good commit. */
  | { type: 'refused'; reason: string; added: number; changed: number; removed: number }
  /**
   * Its render repository cannot be read or refused the write: the branch keeps its last
   * published commit (docs/git-budget.md#render-repositories).
   */
  | { type: 'held'; reason: string; added: number; changed: number; removed: number }
  /** The cluster is no longer registered: this pass wrote its tombstone commit. */
  | { type: 'tombstoned'; commit: string }
  /** The cluster is no longer registered and its branch was tombstoned before: nothing written. */
  | { type: 'retired' };

/** What happened to the bindings branch. */
export type BindingsOutcome =
  | { type: 'unchanged'; commit: string | null }
  | { type: 'updated'; commit: string; records: number; changes: number };

/** Wall time of each phase, in milliseconds. */
export interface PassTimings {
  /** Refresh, resolve and read the source commit, read the hub's branches. */
  readMs: number;
  loadMs: number;
  renderMs: number;
  /** Hash the texts, compare with the branches, build trees and commits. */
  planMs: number;
  /** Store the new objects. */
  writeMs: number;
  /** Move the refs and publish them. */
  refsMs: number;
  /** Write the persisted memo (hub-memo.ts), after the refs moved: not part of totalMs; 0 when none is kept. */
  memoMs: number;
  totalMs: number;
}

/** Returns timings of nothing yet: every phase 0 ms. */
export function noTimings(): PassTimings {
  return { readMs: 0, loadMs: 0, renderMs: 0, planMs: 0, writeMs: 0, refsMs: 0, memoMs: 0, totalMs: 0 };
}

interface PassFacts {
  source: SourceCommit;
  timings: PassTimings;
  /** 1 unless another writer moved a ref first and the pass was run again. */
  attempts: number;
  /**
   * Cluster → why its status repository cannot be read: its status is unreadable (its last
   * report stands; never NotReady, never an eviction). Absent when every one was read.
   */
  statusUnreadable?: Record<string, string>;
  /**
   * Set when the source head is not signed by a trusted key (docs/security.md#source-commits):
   * the pass rendered the last verified commit instead (a `sourceRefused` result: nothing was verified before).
   */
  refused?: SourceRefusal;
  /**
   * Cluster → why its status head is ignored: not signed by the key of its registration
   * (accept-status-heads.ts); the hub read its last signed report, or none. Absent when none is.
   */
  statusRefused?: Record<string, string>;
}

export type HubPassResult =
  /** The source commit does not load: nothing was written and every branch is as it was. */
  | (PassFacts & { type: 'loadFailed'; errors: LoadError[] })
  /** The bindings branch says this source commit was rendered already: nothing was written. */
  | (PassFacts & {
      type: 'upToDate';
      bindingsCommit: string;
      /** Set when a record of moved statuses waits for its gap (status-record-gap.ts): the loop runs a pass then. */
      wakeAt?: Date;
    })
  /**
   * The source commit (or one in its history, in strict mode) is not signed by a trusted key and
   * no commit was verified before, so there is none to render instead: nothing was written
   * (docs/security.md#source-commits). With a verified one, the pass renders it and sets `refused`.
   */
  | (PassFacts & { type: 'sourceRefused'; refused: SourceRefusal })
  | (PassFacts & {
      type: 'rendered';
      /** Cluster name → outcome, sorted by name; unregistered clusters with a branch included. */
      clusters: Record<string, ClusterPassOutcome>;
      bindings: BindingsOutcome;
      /** The render's diagnostics, then the guard's refusals. */
      diagnostics: Diagnostic[];
      written: { objects: number; refs: number; hashedTexts: number };
      /** The failover decisions of the pass (taints, evictions, finished tasks, rebalances), when any. */
      decisions?: readonly FailoverDecision[];
      /** The rollout decisions of the pass (steps started, passed, halted), when any. */
      rolloutDecisions?: readonly RolloutDecision[];
      /** The earliest time a failover decision falls due: the loop runs a pass then. */
      wakeAt?: Date;
    });

/** Returns whether a pass result carries error diagnostics (a refusal, a failed override, …). */
export function hasErrorDiagnostics(result: HubPassResult): boolean {
  return result.type === 'rendered' && result.diagnostics.some((d) => d.severity === 'error');
}
