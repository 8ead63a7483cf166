import type { ClusterAffinity, ResourceSelector } from './selectors.js';
import type { SourceLocation } from './source-location.js';

// Progressive rollout (docs/rollout.md): a RolloutStrategy (namespaced) or ClusterRolloutStrategy
// (gitfleet.io/v1alpha1) kept in the fleet repo says in which steps a change of the templates it
// selects reaches the clusters. The hub holds the clusters of later steps at what they run and
// moves them step by step, each step only once the previous one runs the exact rendered commit
// and the selected objects are Healthy. Every value here is data; the decisions are pure
// functions of these values and the hub's clock (core/rollout/*).

export type RolloutStrategyKind = 'RolloutStrategy' | 'ClusterRolloutStrategy';

/** One step of a strategy, with the defaults applied. */
export interface RolloutStep {
  /** Which clusters the step holds (Karmada's ClusterAffinity shape); absent: none. */
  clusters?: ClusterAffinity;
  /** How long every cluster of the step stays Healthy before the next step starts (default 0). */
  soakSeconds: number;
  /** How many clusters of the step are moved at once (default: all of them). */
  maxUnavailable?: number;
  /** Manual: the step starts only once a source commit approves it (Gitfleet-Approve). */
  approval: 'Manual' | 'Auto';
}

export interface RolloutStrategy {
  kind: RolloutStrategyKind;
  /** '' for a ClusterRolloutStrategy. */
  namespace: string;
  name: string;
  resourceSelectors: ResourceSelector[];
  /** At least one; a cluster no step names is in the last one. */
  steps: RolloutStep[];
  /** A step whose clusters are not all Healthy this long after it started fails (default 600). */
  progressDeadlineSeconds: number;
  onFailure: 'Halt' | 'Rollback';
  /** Who may approve its Manual steps; absent: any Gitfleet-Approve trailer counts (unverified). */
  approvers?: RolloutApprovers;
  source: SourceLocation;
}

/**
 * The approvers of a strategy's Manual steps (docs/rollout.md#who-may-approve): key files in the
 * fleet repository, read from the source commit the hub renders (reviewed like any change). An
 * approval counts only when its commit carries a good signature by one of these keys.
 */
export interface RolloutApprovers {
  /** git's allowed_signers format (SSH keys, principals). */
  allowedSigners?: string;
  /** Armored OpenPGP public keys. */
  openpgpKeys?: string;
  /** Whether the signer (or, unsigned, the author) of the change rolled out may approve it (default false). */
  allowSelfApproval: boolean;
}

/** `<namespace>/<name>` for a RolloutStrategy, `<name>` for a ClusterRolloutStrategy: how trailers and approvals name it. */
export function strategyLabel(s: { namespace: string; name: string }): string {
  return s.namespace ? `${s.namespace}/${s.name}` : s.name;
}

/**
 * Where a rollout stands:
 *
 * | phase           | meaning                                                                  |
 * |-----------------|--------------------------------------------------------------------------|
 * | Progressing     | the clusters of `step` are being moved and gated                         |
 * | WaitingApproval | `step` is Manual and no source commit since the revision approves it     |
 * | Halted          | a gate failed: the later steps keep what they run, moved clusters stay   |
 * | RolledBack      | a gate failed with onFailure Rollback: moved clusters got their last good objects back |
 * | Complete        | every step passed: nothing is held                                       |
 */
export type RolloutPhase = 'Progressing' | 'WaitingApproval' | 'Halted' | 'RolledBack' | 'Complete';

/** One cluster in a rollout. */
export interface RolloutClusterState {
  name: string;
  /** 1-based step of the strategy the cluster is in. */
  step: number;
  /**
   * Held: keeps the selected objects it runs; Moved: runs the revision's; RolledBack: got the
   * objects of `lastGood` back.
   */
  state: 'Held' | 'Moved' | 'RolledBack';
  /** The source commit whose version of the selected objects the cluster runs, when known. */
  commit?: string;
  /**
   * The cluster-branch commit a rollback restores: the one before the cluster was moved, unless
   * that one was never proven good (moved by a rollout that halted): then the one before it.
   */
  lastGood?: string;
  /** The source commit whose selected objects `lastGood` holds. */
  lastGoodCommit?: string;
  /** Why it waits, or what failed (cluster, object, health message). */
  message?: string;
}

/** A rollout as the bindings branch records it (`.gitfleet/rollouts/...`): enough to continue after a restart. */
export interface RolloutState {
  strategy: { kind: RolloutStrategyKind; namespace: string; name: string };
  /** The source commit whose change is rolled out. */
  revision: string;
  /** The last source commit the hub rendered for it (a different one: look for a new change). */
  source: string;
  phase: RolloutPhase;
  /** 1-based; the step in progress (or that failed, or waits for approval). */
  step: number;
  steps: number;
  /** RFC 3339: when the step started (its progress deadline counts from here). */
  stepStartedAt: string;
  /** RFC 3339: since when every cluster of the step has been Healthy (soak). */
  healthySince?: string;
  message?: string;
  /** Cluster → content digest of the selected objects the revision renders there (replicas left out). */
  digests: Record<string, string>;
  /**
   * Paths of the selected objects that were new to the fleet when the rollout started: they reach
   * a cluster in its step, though the template has a binding from the first pass on.
   */
  newObjects?: string[];
  /**
   * The cluster-branch paths of the selected objects the render places on any cluster, sorted:
   * what the rollout holds, so `status` can say which objects a held cluster keeps (records
   * written before it was kept have none).
   */
  objects?: string[];
  clusters: RolloutClusterState[];
}

/** What the rollout stage decided, as a line of the bindings commit (Gitfleet-Rollout trailer). */
export interface RolloutDecision {
  strategy: string;
  type:
    | 'Started'
    | 'Restarted'
    | 'Moved'
    | 'StepPassed'
    | 'WaitingApproval'
    | 'Approved'
    | 'Halted'
    | 'RolledBack'
    | 'Complete'
    | 'Removed';
  message: string;
}
