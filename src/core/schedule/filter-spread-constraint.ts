import type { Cluster } from '../model/cluster.js';
import type { FilterContext, FilterResult } from './filter-plugin.js';

/**
 * Returns whether the cluster has every property the placement spreads by (Karmada's
 * SpreadConstraint filter, pkg/scheduler/framework/plugins/spreadconstraint): spreading by
 * provider, region or zone needs `spec.provider`, `spec.region` or `spec.zones` to be set.
 */
export function filterSpreadConstraint(cluster: Cluster, context: FilterContext): FilterResult {
  for (const constraint of context.placement.spreadConstraints) {
    const field = constraint.spreadByField;
    const missing =
      (field === 'provider' && !cluster.provider) ||
      (field === 'region' && !cluster.region) ||
      (field === 'zone' && cluster.zones.length === 0);
    if (missing)
      return {
        ok: false,
        filter: 'SpreadConstraint',
        reason: `no ${field} set, but spreadConstraints spread by ${field}`,
      };
  }
  return { ok: true };
}
