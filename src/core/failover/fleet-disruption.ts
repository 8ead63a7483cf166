// Fleet disruption (docs/failover.md#when-most-of-the-fleet-goes-quiet): a hub that sees most of
// its clusters go quiet at once is more likely cut off itself (its network, or the Git host the
// agents push to) than watching them all fail, so it stops evicting, as Kubernetes' node
// lifecycle controller stops evicting Pods when most Nodes of a zone go NotReady
// (pkg/controller/nodelifecycle/node_lifecycle_controller.go: ComputeZoneState,
// handleDisruption, ReducedQPSFunc). gitfleet's fleet is that controller's zone and a cluster its
// Node:
//
//   | the fleet's Ready conditions                                        | state   | NoExecute evictions |
//   |----------------------------------------------------------------------|---------|---------------------|
//   | no cluster Ready, at least one not Ready                             | full    | none                |
//   | more than 2 not Ready, and not Ready / counted >= --unhealthy-fleet-threshold (0.55) | partial | none, or at --secondary-resource-eviction-rate (0.01/s) when the fleet has more than --large-fleet-size-threshold (50) clusters |
//   | otherwise                                                            | normal  | at --resource-eviction-rate |
//
// "Not Ready" is a Ready condition False or Unknown (the agent's word, or the monitor's verdict);
// a registered cluster with no Ready condition yet (its agent never reported, and its startup
// grace has not run out) is not counted either way, where the node controller counts a Node
// without one as not ready: a cluster just registered would otherwise stop the fleet's
// evictions until its agent starts. The node controller stops everything when every zone is
// fully disrupted; with one zone that is the full state above.
//
// Only the taint manager's evictions stop (taint-evictions.ts): taints are still added and
// removed, graceful eviction tasks are still assessed, application failover still acts on the
// reports of Ready clusters. While the fleet is disrupted, a NoExecute taint's toleration keeps
// counting from its timeAdded, so a cluster still not Ready when the disruption ends is evicted
// then, at the normal rate.
import type { ClusterStatus } from '../model/cluster.js';
import type { FailoverSettings } from '../model/failover.js';

/** The fleet's disruption state, and the eviction rate it allows (evictions per second; 0: none). */
export interface FleetDisruption {
  state: 'normal' | 'partial' | 'full';
  notReady: string[];
  /** The clusters with a Ready condition. */
  counted: number;
  rate: number;
}

/** Returns the fleet's disruption state from its clusters' Ready conditions (see the table above). */
export function judgeFleetDisruption(
  clusters: readonly string[],
  clusterStatus: ReadonlyMap<string, ClusterStatus>,
  settings: FailoverSettings,
): FleetDisruption {
  let ready = 0;
  const notReady: string[] = [];
  for (const cluster of clusters) {
    const condition = clusterStatus.get(cluster)?.conditions?.find((c) => c.type === 'Ready');
    if (condition === undefined) continue;
    if (condition.status === 'True') ready++;
    else notReady.push(cluster);
  }
  const counted = ready + notReady.length;
  const base = { notReady: notReady.sort(), counted };
  if (ready === 0 && notReady.length > 0) return { ...base, state: 'full', rate: 0 };
  if (notReady.length > 2 && notReady.length / counted >= settings.unhealthyFleetThreshold) {
    const rate =
      clusters.length > settings.largeFleetSizeThreshold ? settings.secondaryResourceEvictionRate : 0;
    return { ...base, state: 'partial', rate };
  }
  return { ...base, state: 'normal', rate: settings.resourceEvictionRate };
}

/** Returns the words of a disrupted state for the log and the bindings commit. */
export function describeFleetDisruption(d: FleetDisruption, settings: FailoverSettings): string {
  const share = `${d.notReady.length} of ${d.counted} clusters are not Ready (${d.notReady.join(', ')})`;
  const why =
    d.state === 'full'
      ? 'no cluster is Ready'
      : `at least ${settings.unhealthyFleetThreshold} of the fleet (--unhealthy-fleet-threshold)`;
  const then =
    d.rate > 0
      ? `NoExecute evictions slowed to --secondary-resource-eviction-rate ${d.rate}/s`
      : 'no NoExecute eviction until fewer clusters are not Ready: the hub, or Git, is more likely cut off than the clusters all down';
  return `${share}: ${why}; ${then}`;
}
