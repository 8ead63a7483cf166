import type { ClusterDetail } from './cluster-detail.js';
import type { SelectResult } from './select-result.js';
import type { GroupLimits } from './spread-constraint-by-field.js';

export interface SelectClustersByClusterOptions {
  /** The feasible clusters, sorted. */
  clusters: readonly ClusterDetail[];
  limits: GroupLimits;
  /** Replicas the chosen clusters must hold together; undefined for Duplicated (not checked). */
  needReplicas: number | undefined;
}

/**
 * Returns up to maxGroups clusters (Karmada's selectBestClustersByCluster,
 * pkg/scheduler/core/spreadconstraint/select_clusters_by_cluster.go):
 *   - fewer feasible clusters than minGroups ⇒ fails;
 *   - take the first min(feasible, maxGroups) clusters in sort order;
 *   - when replicas must fit and they do not, replace the taken clusters from the last one
 *     backwards by the left-over cluster with the most available replicas, if it has more;
 *     still not enough ⇒ fails.
 */
export function selectClustersByCluster(options: SelectClustersByClusterOptions): SelectResult {
  const { clusters, limits, needReplicas } = options;
  if (clusters.length < limits.minGroups) {
    return {
      ok: false,
      message: `spreadConstraints: ${clusters.length} feasible cluster(s) are fewer than minGroups ${limits.minGroups} of the cluster constraint`,
    };
  }
  const needCount = Math.min(clusters.length, limits.maxGroups);
  if (needCount === 0) {
    return {
      ok: false,
      message:
        'spreadConstraints: the cluster constraint selects no cluster: maxGroups is unset or 0 (Karmada reads an unset maxGroups as 0)',
    };
  }
  if (needReplicas === undefined) return { ok: true, clusters: clusters.slice(0, needCount) };
  const chosen = clusters.slice(0, needCount);
  const rest = clusters.slice(needCount);
  for (let slot = chosen.length - 1; slot >= 0 && !holds(chosen, needReplicas); slot--) {
    const current = chosen[slot] as ClusterDetail;
    const swap = indexOfMostAvailable(rest, current.availableReplicas);
    if (swap < 0) continue;
    chosen[slot] = rest[swap] as ClusterDetail;
    rest[swap] = current;
  }
  if (!holds(chosen, needReplicas)) {
    return {
      ok: false,
      message: `spreadConstraints: no ${needCount} cluster(s) have ${needReplicas} replicas available together`,
    };
  }
  return { ok: true, clusters: chosen };
}

function holds(clusters: readonly ClusterDetail[], replicas: number): boolean {
  return clusters.reduce((sum, c) => sum + c.availableReplicas, 0) >= replicas;
}

// Karmada's GetClusterWithMaxAvailableResource: the first cluster with strictly more than `floor`.
function indexOfMostAvailable(clusters: readonly ClusterDetail[], floor: number): number {
  let best = floor;
  let index = -1;
  clusters.forEach((c, i) => {
    if (c.availableReplicas > best) {
      best = c.availableReplicas;
      index = i;
    }
  });
  return index;
}
