// The hub's own verdict on a cluster whose agent stopped reporting (Karmada's cluster
// controller, tryUpdateClusterHealth): the monitor (loops/hub/cluster-monitor.ts) judges
// freshness by the hub's monotonic clock and says which clusters are Unknown; the reported
// status of those clusters gets a Ready condition Unknown in its place, which the render turns
// into the unreachable taint as for any other Unknown.
import type { ClusterStatus } from '../model/cluster.js';

/** The monitor's verdict on one cluster: its agent's heartbeat has not moved for longer than the grace period. */
export interface ClusterVerdict {
  status: 'Unknown';
  /** ClusterStatusUnknown (it reported before), ClusterStatusNeverUpdated (never). */
  reason: 'ClusterStatusUnknown' | 'ClusterStatusNeverUpdated';
  message: string;
}

/** Returns the clusters' status with the monitor's verdicts in place of their Ready condition. */
export function withMonitorVerdicts(
  status: ReadonlyMap<string, ClusterStatus>,
  verdicts: ReadonlyMap<string, ClusterVerdict>,
): Map<string, ClusterStatus> {
  const judged = new Map(status);
  for (const [cluster, verdict] of verdicts) {
    const reported = status.get(cluster) ?? {};
    const others = (reported.conditions ?? []).filter((c) => c.type !== 'Ready');
    const ready = { type: 'Ready', status: verdict.status, reason: verdict.reason, message: verdict.message };
    judged.set(cluster, { ...reported, conditions: [...others, ready] });
  }
  return judged;
}
