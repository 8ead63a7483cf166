import type { Cluster, ClusterStatus, Taint } from '../model/cluster.js';
import { conditionTaints } from '../model/condition-taints.js';
import type { TimedTaint } from '../model/failover.js';

/**
 * Returns the taints the scheduler filters a cluster on: its spec taints (Git owns the spec)
 * plus the ones the hub keeps on it (Snapshot.clusterTaints, core/failover/cluster-taints.ts:
 * from its conditions and the ClusterTaintPolicies). A render without the hub's taints
 * (`hubTaints` absent: `gitfleet render`, `diff`) derives them from the Ready condition alone
 * (model/condition-taints.ts). A taint whose key and effect a spec taint already has is not
 * added twice (Karmada's SetCurrentClusterTaints adds a taint only when none matches).
 */
export function effectiveTaints(
  cluster: Cluster,
  status: ClusterStatus | undefined,
  hubTaints?: ReadonlyMap<string, readonly TimedTaint[]>,
): Taint[] {
  const kept = hubTaints ? (hubTaints.get(cluster.name) ?? []) : conditionTaints(status).add;
  const taints: Taint[] = cluster.taints.map((t) => ({ ...t }));
  for (const taint of kept) {
    if (!taints.some((t) => t.key === taint.key && t.effect === taint.effect)) taints.push({ ...taint });
  }
  return taints;
}
