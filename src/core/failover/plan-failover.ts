// The failover stage of a hub pass (docs/failover.md), around the render:
//
//   1. planClusterTaints, before the render: the taints the hub keeps on each cluster, from its
//      conditions (Karmada's taintClusterByCondition) and the fleet's ClusterTaintPolicies, each
//      with the time it was added; the render's scheduler filters on them.
//   2. planEvictions, after a first render: which bindings leave which clusters (NoExecute
//      taints not tolerated, applications unhealthy too long), which eviction tasks are done,
//      which WorkloadRebalancers ask for a fresh schedule. When it changes the previous
//      bindings, the hub renders again with them, so the evicted replicas are placed elsewhere
//      in the same pass.
//
// Both are pure: the hub's clock, the agents' reports and what the bindings branch recorded
// (files under `.gitfleet/failover/`) come in as data; what to record next and the earliest time
// a decision falls due (`wakeAt`, the bindings commit's Gitfleet-Wake-At trailer) go out.
import type { Binding, PreviousBinding } from '../model/binding.js';
import type { ClusterStatus } from '../model/cluster.js';
import type { FailoverDecision, FailoverSettings, TimedTaint } from '../model/failover.js';
import type { Fleet } from '../model/fleet.js';
import type { AgentReport } from '../status/status-branch.js';
import { planTaintsOfClusters } from './cluster-taints.js';
import { taintEvictionRequests } from './taint-evictions.js';
import { applicationFailoverRequests } from './application-failover.js';
import { applyEvictions, assessEvictionTasks } from './apply-evictions.js';
import { planRebalancers } from './rebalance.js';
import type { EvictionRequest, FailoverMemory } from './eviction-request.js';

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

/** Step 1: the hub's taints of every registered cluster. */
export function planClusterTaints(input: ClusterTaintsInput): ClusterTaintsOutput {
  return planTaintsOfClusters(input);
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
  /** The earliest time a decision falls due (a toleration ends, a grace period ends, the rate limit lets the next eviction go). */
  wakeAt?: Date;
}

/** Step 2: evictions, finished eviction tasks and rebalancing. */
export function planEvictions(input: EvictionInput): EvictionOutput {
  const taint = taintEvictionRequests(input);
  const application = applicationFailoverRequests(input);
  const requests: EvictionRequest[] = [...taint.requests, ...application.requests];
  const evicted = applyEvictions(input.previous, requests, input.now);
  const assessed = assessEvictionTasks({ ...input, previous: evicted.previous });
  const rebalanced = planRebalancers({ ...input, previous: assessed.previous });
  const decisions = [
    ...taint.decisions,
    ...application.decisions,
    ...evicted.decisions,
    ...assessed.decisions,
    ...rebalanced.decisions,
  ];
  const wakeAt = earliest([taint.wakeAt, application.wakeAt, assessed.wakeAt, rebalanced.wakeAt]);
  return {
    previous: rebalanced.previous,
    changed: evicted.changed || assessed.changed || rebalanced.changed,
    files: rebalanced.files,
    decisions,
    ...(wakeAt ? { wakeAt } : {}),
  };
}

function earliest(times: readonly (Date | undefined)[]): Date | undefined {
  let first: Date | undefined;
  for (const t of times) if (t && (!first || t.getTime() < first.getTime())) first = t;
  return first;
}
