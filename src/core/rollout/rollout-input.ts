// The rollout stage's inputs and outputs (plan-rollouts.ts), on their own so its steps can take
// them without importing the stage back.
import type { Cluster } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { RolloutDecision, RolloutState, RolloutStrategy } from '../model/rollout.js';
import type { AgentReport } from '../status/status-branch.js';
import type { ApprovalCommit, ChangeMaker } from './judge-approval.js';

/** What one pass's render changes of a strategy's objects on one cluster. */
export interface ClusterView {
  /** Whether the render changes the content of a selected object there (held-objects.ts: content). */
  pending: boolean;
  /** contentDigest of the render's selected files there. */
  digest: string;
  /** The selected objects' paths the render places there: the gate reads their health. */
  paths: readonly string[];
}

export interface RolloutInput {
  now: Date;
  /** The source commit rendered by this pass. */
  sourceCommit: string;
  /** The source commit the hub rendered last (what a cluster not yet in any rollout runs). */
  lastSource: string | null;
  strategies: readonly RolloutStrategy[];
  clusters: readonly Cluster[];
  /** Strategy label → cluster → what the render changes there (clusters with no selected object are absent). */
  views: ReadonlyMap<string, ReadonlyMap<string, ClusterView>>;
  /** Strategy label → the paths of its selected objects whose template has no binding yet (new to the fleet). */
  newObjects: ReadonlyMap<string, readonly string[]>;
  /** Each cluster branch's head before this pass writes: the commit a gate wants applied. */
  clusterHeads: ReadonlyMap<string, string>;
  reports: ReadonlyMap<string, AgentReport>;
  /** The files under rolloutDir of the bindings branch, path → text. */
  recorded: ReadonlyMap<string, string>;
  /**
   * The source branch's commits from the rendered one back along first parents (newest first,
   * as far as the oldest revision in progress, bounded), each with its Gitfleet-Approve values
   * (`<strategy> step <n>`) and, for strategies with approvers, the verdicts on its signature:
   * an approval counts from the rollout's revision on (judge-approval.ts).
   */
  approvals: readonly ApprovalCommit[];
  /** Revision → who made it (its signer and author), for the self-approval check; absent: none read. */
  changes?: ReadonlyMap<string, ChangeMaker>;
}

/** What a pass does to one cluster's objects of one strategy. */
export type ClusterAction = { type: 'move' } | { type: 'hold' } | { type: 'rollback'; lastGood: string };

export interface RolloutOutput {
  /** Strategy label → cluster → its action (absent: move). */
  actions: Map<string, Map<string, ClusterAction>>;
  /** The rollouts after this pass, by strategy label (for the cluster commits' trailers). */
  states: Map<string, RolloutState>;
  /** Files under rolloutDir to record (path → text); a path left out is removed. */
  files: Map<string, string>;
  decisions: RolloutDecision[];
  diagnostics: Diagnostic[];
  /** The earliest time a soak ends or a deadline passes, strictly after now. */
  wakeAt?: Date;
}
