import type { Cluster } from '../model/cluster.js';
import { explainAffinityMismatch } from '../select/cluster-matches.js';
import type { FilterContext, FilterResult } from './filter-plugin.js';

/**
 * Returns whether the cluster satisfies the affinity in force (Karmada's ClusterAffinity filter,
 * pkg/scheduler/framework/plugins/clusteraffinity): no affinity ⇒ every cluster passes.
 */
export function filterClusterAffinity(cluster: Cluster, context: FilterContext): FilterResult {
  if (!context.affinity) return { ok: true };
  const mismatch = explainAffinityMismatch(cluster, context.affinity);
  return mismatch === undefined ? { ok: true } : { ok: false, filter: 'ClusterAffinity', reason: mismatch };
}
