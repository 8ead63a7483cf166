import type { Cluster } from '../model/cluster.js';
import type { FilterContext, FilterResult } from './filter-plugin.js';

/**
 * Returns whether the cluster is free of the binding's graceful eviction tasks (Karmada's
 * ClusterEviction filter, pkg/scheduler/framework/plugins/clustereviction): a cluster the
 * binding is being evicted from is not feasible until its task is done, so the replicas taken
 * from it are placed elsewhere and do not come straight back.
 */
export function filterClusterEviction(cluster: Cluster, context: FilterContext): FilterResult {
  const task = context.evictionTasks?.find((t) => t.fromCluster === cluster.name);
  if (!task) return { ok: true };
  return {
    ok: false,
    filter: 'ClusterEviction',
    reason: `being evicted (${task.reason} by ${task.producer} since ${task.creationTimestamp}): not schedulable until the eviction is done`,
  };
}
