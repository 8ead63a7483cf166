import type { Cluster } from '../model/cluster.js';
import { filterApiEnablement } from './filter-api-enablement.js';
import { filterClusterAffinity } from './filter-cluster-affinity.js';
import { filterClusterEviction } from './filter-cluster-eviction.js';
import { filterSpreadConstraint } from './filter-spread-constraint.js';
import { filterTaintToleration } from './filter-taint-toleration.js';
import type { ClusterFilter, FilterContext, FilterResult } from './filter-plugin.js';

// Karmada's in-tree filters (pkg/scheduler/framework/plugins/registry.go): APIEnablement,
// TaintToleration, ClusterAffinity, SpreadConstraint, ClusterEviction. Karmada builds the list
// from a Go map, so their order is unspecified; a cluster fails on the first filter that
// rejects it. gitfleet fixes the order so diagnoses are stable, putting the filter users
// most often mean (affinity) first, and the eviction filter (a binding's own decision to leave
// a cluster) right after it, before the taint that usually caused it.
const FILTERS: readonly ClusterFilter[] = [
  filterClusterAffinity,
  filterClusterEviction,
  filterTaintToleration,
  filterApiEnablement,
  filterSpreadConstraint,
];

/**
 * Returns whether the ClusterEviction filter is the only one that rejects the cluster: it would
 * be feasible but for the binding's eviction task from it (the cluster is back: Ready, its
 * taints gone), which is what ends a task no other cluster took over (core/failover/apply-evictions.ts).
 */
export function failsOnlyForEviction(cluster: Cluster, context: FilterContext): boolean {
  if (filterClusterEviction(cluster, context).ok) return false;
  return FILTERS.every((filter) => filter === filterClusterEviction || filter(cluster, context).ok);
}

/** Returns the first rejection of a cluster by the filter plugins, or `{ ok: true }`. */
export function runClusterFilters(cluster: Cluster, context: FilterContext): FilterResult {
  for (const filter of FILTERS) {
    const result = filter(cluster, context);
    if (!result.ok) return result;
  }
  return { ok: true };
}
