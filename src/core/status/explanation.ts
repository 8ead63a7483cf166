// Why an object is where it is, per cluster: the one explanation `gitfleet status`, the dashboard,
// `gitfleet log` and the pull-request comment all show (docs/status.md#why). Computed by
// explain-template.ts from what Git holds: the binding record (placement, the scheduler's
// refusals, eviction tasks), the rollout records and the agents' reports.
import type { RefusingFilter } from '../model/binding.js';
import type { RolloutPhase } from '../model/rollout.js';
import type { HealthStatus } from '../health/health.js';

/**
 * Why, in one word: the closed set every view shows.
 *
 * | reason              | placed | meaning                                                            |
 * |---------------------|--------|--------------------------------------------------------------------|
 * | Healthy             | yes    | applied at the rendered commit, and Healthy                        |
 * | Progressing         | yes    | applied, becoming healthy (the health check's reason)              |
 * | Degraded            | yes    | applied, and unhealthy: a person should look                       |
 * | HealthUnknown       | yes    | applied, the agent cannot tell its health                          |
 * | ApplyFailed         | yes    | the agent's apply failed (its error)                               |
 * | NotYetApplied       | yes    | the agent has not applied the cluster branch's head yet            |
 * | NotReported         | yes    | the cluster's agent has reported nothing (or not this object)      |
 * | ClusterNotReady     | yes    | the cluster is not Ready (the agent's condition, or the hub's monitor) |
 * | HeldByRollout       | yes    | a rollout keeps the version the cluster runs until an earlier step passes, a soak ends or a person approves |
 * | RolloutHalted       | yes    | the rollout stopped: the cluster keeps what it runs until a fix     |
 * | RolledBack          | yes    | the rollout gave the cluster its last good objects back             |
 * | CheckedAtRender     | yes    | a check-only admission policy or binding: checked against the cluster's render, never applied there |
 * | Evicting            | no     | evicted from the cluster; its copy stays there until the task ends |
 * | ExcludedByAffinity  | no     | the placement's clusterAffinity leaves it out                       |
 * | NotRegistered       | no     | the placement names a cluster no Cluster document registers         |
 * | TaintNotTolerated   | no     | the cluster has a taint the placement does not tolerate             |
 * | ApiNotServed        | no     | the cluster does not serve the object's API (a CRD is missing)     |
 * | SpreadFieldMissing  | no     | spreadConstraints spread by a field the cluster does not set       |
 * | NoRoom              | no     | the clusters cannot take the replicas                               |
 * | NotSelected         | no     | fits, but the placement did not choose it (affinity, spread constraints, replica division) |
 * | NoClusterFit        | no     | the template is placed nowhere: every cluster was refused (the template's rollup) |
 * | ScheduleFailed      | —      | the last schedule failed; the previous clusters are kept            |
 * | PendingRemoval      | no     | no longer placed, but its agent still reports it (not pruned yet, or kept) |
 */
export type ExplanationReason =
  | 'Healthy'
  | 'Progressing'
  | 'Degraded'
  | 'HealthUnknown'
  | 'ApplyFailed'
  | 'NotYetApplied'
  | 'NotReported'
  | 'ClusterNotReady'
  | 'HeldByRollout'
  | 'RolloutHalted'
  | 'RolledBack'
  | 'CheckedAtRender'
  | 'Evicting'
  | 'ExcludedByAffinity'
  | 'NotRegistered'
  | 'TaintNotTolerated'
  | 'ApiNotServed'
  | 'SpreadFieldMissing'
  | 'NoRoom'
  | 'NotSelected'
  | 'NoClusterFit'
  | 'ScheduleFailed'
  | 'PendingRemoval';

/** Every reason, worst first: the order a template's rollup and the views sort by. */
export const explanationReasons: readonly ExplanationReason[] = [
  'NoClusterFit',
  'ApplyFailed',
  'Degraded',
  'RolloutHalted',
  'RolledBack',
  'ClusterNotReady',
  'NotReported',
  'ScheduleFailed',
  'HealthUnknown',
  'NotYetApplied',
  'HeldByRollout',
  'Evicting',
  'Progressing',
  'PendingRemoval',
  'ApiNotServed',
  'TaintNotTolerated',
  'NoRoom',
  'SpreadFieldMissing',
  'NotRegistered',
  'ExcludedByAffinity',
  'NotSelected',
  'CheckedAtRender',
  'Healthy',
];

/** What a rollout does to the object on a cluster. */
export interface RolloutHold {
  /** `<namespace>/<name>` of a RolloutStrategy, `<name>` of a ClusterRolloutStrategy. */
  strategy: string;
  phase: RolloutPhase;
  /** The cluster's step and the step in progress (1-based), out of `steps`. */
  step: number;
  current: number;
  steps: number;
  /**
   * What it waits for: an earlier step's clusters to run the revision Healthy, the soak of the
   * step in progress, a person's approval (a Gitfleet-Approve trailer); absent once it stopped.
   */
  waitingFor?: 'EarlierStep' | 'Soak' | 'Approval';
  /** The source commit rolled out. */
  revision: string;
  /** The source commit whose version the cluster runs, when known. */
  runs?: string;
}

/** An eviction of the object from a cluster (a graceful eviction task of its binding record). */
export interface EvictionHold {
  /** Why: TaintUntolerated, ApplicationFailure… and who decided: TaintManager, ApplicationFailover. */
  reason: string;
  producer: string;
  purgeMode: string;
  /** When the task was made (RFC 3339, the hub's clock). */
  since: string;
  /**
   * When the copy goes at the latest (RFC 3339): the task's grace period, else the hub's
   * --graceful-eviction-timeout (its default when the caller does not say); absent when a
   * person decides (purgeMode Never).
   */
  until?: string;
}

/** The object on one cluster, explained. */
export interface ClusterExplanation {
  cluster: string;
  /** Whether the template is scheduled to the cluster. */
  placed: boolean;
  reason: ExplanationReason;
  /** One sentence, subject first, saying what holds and, where a user can act, what to do. */
  message: string;
  /** Applied by the agent and its health, for a placed cluster that reported it. */
  applied?: boolean;
  health?: HealthStatus;
  /** The filter of the scheduler that refused the cluster. */
  filter?: RefusingFilter;
  rollout?: RolloutHold;
  eviction?: EvictionHold;
}

/** A template over the fleet, explained. */
export interface TemplateExplanation {
  /** `Kind/namespace/name` or `Kind/name`. */
  template: string;
  /** refKey of the template. */
  key: string;
  /** The worst reason over its clusters (Healthy when every placed cluster is). */
  reason: ExplanationReason;
  /** Why, for a template that is not Healthy: the worst cluster's message, or why it is placed nowhere. */
  message: string;
  /** One per cluster the fleet knows, by name: placed or not, and why. */
  clusters: ClusterExplanation[];
  /** Where a template a source rendered came from, in words (core/sources/describe-provenance.ts). */
  source?: string;
}
