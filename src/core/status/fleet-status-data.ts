// What `gitfleet status` and `gitfleet ui` know about a fleet, as read from the hub's and the
// agents' branches (loops/views/read-fleet-status.ts does the reading). Pure data: the
// summaries (fleet-summary.ts), the full matrix (status-table.ts) and the filters
// (filter-fleet-status.ts) are functions of it, so the command line and the dashboard show the
// same numbers.
import type { BindingView } from '../publish/binding-record.js';
import type { Cluster } from '../model/cluster.js';
import type { TimedTaint } from '../model/failover.js';
import type { RolloutState } from '../model/rollout.js';
import type { RefusedDeletion } from '../publish/refusal-trailers.js';
import type { EvictionTaskView } from './eviction-task-view.js';
import type { AgentReport } from './status-branch.js';
import type { QuotaStatusView } from '../model/federated-resource-quota.js';

/**
 * How far a cluster's applied commit is behind its rendered head, counted in commits on the
 * cluster branch (first parents from the head, as `git rev-list --first-parent --count`):
 *
 * | value                         | when                                                        |
 * |-------------------------------|-------------------------------------------------------------|
 * | `{ type: 'Behind', commits }` | the applied commit is `commits` first parents below the head (0: up to date) |
 * | `{ type: 'AtLeast', commits }`| not found in the first `commits` commits walked (the walk is bounded) |
 * | `{ type: 'NotOnBranch' }`     | the walk reached the branch's first commit without meeting it (a rewritten branch, another cluster's commit) |
 * | `{ type: 'NeverApplied' }`    | the agent has reported no complete apply yet                |
 */
export type CommitDistance =
  | { type: 'Behind'; commits: number }
  | { type: 'AtLeast'; commits: number }
  | { type: 'NotOnBranch' }
  | { type: 'NeverApplied' };

/** An eviction task of a template's binding record, with the template it belongs to. */
export type TemplateEvictionTask = { template: string } & EvictionTaskView;

/** Everything the status views are made from; every map is keyed by cluster name unless said otherwise. */
export interface FleetStatusData {
  /** The repository as the user named it (a path or a URL without credentials). */
  repo: string;
  branchPrefix: string;
  /** The head of the bindings branch. */
  bindingsHead: string;
  /** When the hub committed the bindings head (RFC 3339, the committer time). */
  bindingsTime?: string;
  /** The source commit the bindings head was rendered from (its Gitfleet-Source-Commit trailer). */
  sourceCommit?: string;
  /** Its ref (the Gitfleet-Source-Ref trailer) and subject (from the bindings head's subject), when named. */
  sourceRef?: string;
  sourceSubject?: string;
  /** The records of the bindings branch, one per template (or dependency, namespace…). */
  bindings: BindingView[];
  /** The readable status branches' reports. */
  reports: Map<string, AgentReport>;
  /**
   * The clusters whose per-object status is the one the hub aggregated into the binding records
   * (`BindingView.aggregatedStatus`): their status branch and cluster branch are still the ones
   * the bindings head records, so the hub's aggregation is what aggregateBindingStatus would
   * give. Their reports carry the cluster's own status and applied commit, and the records of
   * the objects that are not a binding placed there (namespaces made for templates, derived
   * Services, objects not yet pruned); the others are in the binding records.
   */
  aggregatedByHub: Set<string>;
  /** Why a status branch does not read (no cluster.yaml, not YAML, not an AgentReport). */
  unreadable: Map<string, string>;
  /** When the agent committed the head of its status branch (RFC 3339). */
  reportTimes: Map<string, string>;
  /**
   * The cluster-branch commit each status head reports on (its Gitfleet-Applied-Commit trailer):
   * the commit a failed apply was for, which `appliedCommit` (the last one fully applied) is not.
   */
  reportedOn?: Map<string, string>;
  /** When the agent last renewed its heartbeat (RFC 3339), for clusters that have one. */
  heartbeatTimes: Map<string, string>;
  /** The head of each `clusters/<cluster>` branch: what the hub rendered last. */
  renderedHeads: Map<string, string>;
  /** Cluster → the git directory its branch's commits are read from, when it lives in a render repository. */
  renderedIn?: Map<string, string>;
  /** How far each reporting cluster's applied commit is behind its rendered head. */
  behind: Map<string, CommitDistance>;
  /** The monitor's verdicts recorded on the bindings head (Gitfleet-Cluster-Judged): cluster → status. */
  judged: Map<string, string>;
  /** The templates' labels by refKey, from the source commit (empty when it does not load). */
  templateLabels: Map<string, Record<string, string>>;
  /** Why the templates' labels could not be read, when they could not. */
  templateLabelsError?: string;
  /** Every eviction task of every binding record, templates in label order. */
  evictions: TemplateEvictionTask[];
  /**
   * Every rollout the bindings branch records (.gitfleet/rollouts/), readable or not: the
   * RolloutView of core/rollout/rollout-view.ts, spelled out here because core/rollout reads
   * core/status.
   */
  rollouts: ({ path: string; rollout: RolloutState } | { path: string; unreadable: string })[];
  /** The cluster updates the hub's guard refused, still pending (the bindings head's Gitfleet-Deletion-Refused). */
  hubRefusals?: RefusedDeletion[];
  /**
   * The taints the hub keeps on each cluster (`.gitfleet/failover/clusters/<cluster>.yaml` of the
   * bindings branch, core/failover/cluster-taints.ts), each with the hub's time it was added;
   * absent for a cluster with none.
   */
  keptTaints?: Map<string, TimedTaint[]>;
  /** The clusters registered in the source commit (their labels, region, spec taints), when it loads. */
  registrations?: Map<string, Cluster>;
  /** Template refKey → the rollout strategy that selects it (`ns/name` or `name`), from the source commit. */
  rolledOutBy?: Map<string, string>;
  /** The FederatedResourceQuotas' status records of the bindings branch (`.gitfleet/quotas/`), by path. */
  quotas?: QuotaStatusView[];
}
