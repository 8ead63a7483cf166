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
import type {
  ClusterTaintsInput,
  ClusterTaintsOutput,
  EvictionInput,
  EvictionOutput,
} from './failover-input.js';
import { planTaintsOfClusters } from './cluster-taints.js';
import { taintEvictionRequests } from './taint-evictions.js';
import { applicationFailoverRequests } from './application-failover.js';
import { applyEvictions, assessEvictionTasks } from './apply-evictions.js';
import { planRebalancers } from './rebalance.js';
import type { EvictionRequest } from './eviction-request.js';

export type { ClusterTaintsInput, ClusterTaintsOutput, EvictionInput, EvictionOutput };

export { failoverDir } from './failover-input.js';
export { settleEndedTasks } from './settle-ended-tasks.js';

/** Step 1: the hub's taints of every registered cluster. */
export function planClusterTaints(input: ClusterTaintsInput): ClusterTaintsOutput {
  return planTaintsOfClusters(input);
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
    ended: assessed.ended,
    ...(wakeAt ? { wakeAt } : {}),
  };
}

function earliest(times: readonly (Date | undefined)[]): Date | undefined {
  let first: Date | undefined;
  for (const t of times) if (t && (!first || t.getTime() < first.getTime())) first = t;
  return first;
}
