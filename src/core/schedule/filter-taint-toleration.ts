import type { Cluster } from '../model/cluster.js';
import type { FilterContext, FilterResult } from './filter-plugin.js';
import { effectiveTaints } from './effective-taints.js';
import { findUntoleratedTaint, formatTaint } from './find-untolerated-taint.js';

/**
 * Returns whether the placement's clusterTolerations tolerate the cluster's NoSchedule and
 * NoExecute taints (Karmada's TaintToleration filter, pkg/scheduler/framework/plugins/tainttoleration).
 * A cluster already in the previous result always passes: evicting is the taint manager's
 * job, not the scheduler's.
 */
export function filterTaintToleration(cluster: Cluster, context: FilterContext): FilterResult {
  if (context.previousClusters.has(cluster.name)) return { ok: true };
  const taints = effectiveTaints(cluster, context.clusterStatus.get(cluster.name), context.clusterTaints);
  const taint = findUntoleratedTaint(taints, context.placement.clusterTolerations);
  return taint
    ? { ok: false, filter: 'TaintToleration', reason: `taint ${formatTaint(taint)} not tolerated`, taint }
    : { ok: true };
}
