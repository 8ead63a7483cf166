import type { Cluster, ClusterStatus, Taint } from '../model/cluster.js';

// Karmada's cluster controller taints a cluster from its Ready condition
// (pkg/controllers/cluster/cluster_controller.go, taintClusterByCondition; keys in
// pkg/apis/cluster/v1alpha1/well_known_constants.go):
//
//   | Ready condition | taint the controller keeps on the cluster  |
//   |-----------------|--------------------------------------------|
//   | False           | cluster.karmada.io/not-ready:NoSchedule    |
//   | Unknown         | cluster.karmada.io/unreachable:NoSchedule  |
//   | True            | none                                       |
//   | absent          | not-ready (Karmada); none (gitfleet)       |
//
// gitfleet difference: with no status, or a status without a Ready condition, nothing is
// added. Karmada's controller probes every cluster itself, so "no condition" means "never
// probed yet"; here status comes only from the agent, and a cluster whose agent has not
// reported yet must stay schedulable, or the agent would never get anything to apply.
// Taints written in the cluster's spec are kept as they are (Git owns the spec).
export const NOT_READY_TAINT: Taint = { key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' };
export const UNREACHABLE_TAINT: Taint = { key: 'cluster.karmada.io/unreachable', effect: 'NoSchedule' };

/** Returns the cluster's spec taints plus the taint Karmada's cluster controller derives from status. */
export function effectiveTaints(cluster: Cluster, status: ClusterStatus | undefined): Taint[] {
  const ready = status?.conditions?.find((c) => c.type === 'Ready');
  const derived =
    ready?.status === 'False' ? NOT_READY_TAINT : ready?.status === 'Unknown' ? UNREACHABLE_TAINT : undefined;
  const taints = cluster.taints.map((t) => ({ ...t }));
  // Karmada's SetCurrentClusterTaints adds a taint only when no taint has the same key and effect.
  if (derived && !taints.some((t) => t.key === derived.key && t.effect === derived.effect)) {
    taints.push({ ...derived });
  }
  return taints;
}
