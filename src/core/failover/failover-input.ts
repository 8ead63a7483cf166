// The failover stage's inputs and outputs (plan-failover.ts), on their own so the stage's
// steps can take them without importing the stage back.
import type { Binding, PreviousBinding } from '../model/binding.js';
import type { ClusterStatus } from '../model/cluster.js';
import type { FailoverDecision, FailoverSettings, TimedTaint } from '../model/failover.js';
import type { Fleet } from '../model/fleet.js';
import type { AgentReport } from '../status/status-branch.js';
import type { FailoverMemory } from './eviction-request.js';
import type { EndedTask } from './settle-ended-tasks.js';

/** The directory of the bindings branch that holds the failover stage's own records. */
export const failoverDir = '.gitfleet/failover/';

export interface ClusterTaintsInput {
  now: Date;
  fleet: Fleet;
  /** The clusters' status as the hub judges it (the agents' reports, with the monitor's verdicts). */
  clusterStatus: ReadonlyMap<string, ClusterStatus>;
  /** The files under failoverDir of the bindings branch, path → text. */
  recorded: ReadonlyMap<string, string>;
}

export interface ClusterTaintsOutput {
  /** Cluster → the taints the hub keeps on it (spec taints are not in here): Snapshot.clusterTaints. */
  taints: Map<string, TimedTaint[]>;
  /** Files under failoverDir to record (path → text); a path left out is removed. */
  files: Map<string, string>;
  decisions: FailoverDecision[];
}

export interface EvictionInput {
  now: Date;
  settings: FailoverSettings;
  fleet: Fleet;
  /** The bindings of the first render (current placement, tolerations, failover behaviour, schedule). */
  bindings: readonly Binding[];
  /** The previous bindings the first render was made with (their eviction tasks included). */
  previous: ReadonlyMap<string, PreviousBinding>;
  clusterStatus: ReadonlyMap<string, ClusterStatus>;
  clusterTaints: ReadonlyMap<string, readonly TimedTaint[]>;
  /** The agents' reports by cluster: per-object health and reflected status. */
  reports: ReadonlyMap<string, AgentReport>;
  /**
   * The head of each cluster branch before this pass writes (absent: not known): a report about
   * another commit is about an older rendering, so its health does not count (aggregate-status.ts).
   */
  clusterHeads?: ReadonlyMap<string, string>;
  recorded: ReadonlyMap<string, string>;
  /** What this hub process remembers between passes (lost on restart, as in Karmada). */
  memory: FailoverMemory;
}

export interface EvictionOutput {
  /** The previous bindings to render with: evicted clusters removed, tasks added or dropped. */
  previous: Map<string, PreviousBinding>;
  /** Whether `previous` differs from the input's: the hub renders again. */
  changed: boolean;
  files: Map<string, string>;
  decisions: FailoverDecision[];
  /** The eviction tasks this stage ended: settleEndedTasks tells their decisions what the render then did. */
  ended: EndedTask[];
  /** The earliest time a decision falls due (a toleration ends, a grace period ends, the rate limit lets the next eviction go). */
  wakeAt?: Date;
}
