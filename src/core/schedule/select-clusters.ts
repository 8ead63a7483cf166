import type { Placement } from '../model/propagation-policy.js';
import type { ClusterDetail } from './cluster-detail.js';
import { selectClustersByCluster } from './select-clusters-by-cluster.js';
import { selectClustersByRegion } from './select-clusters-by-region.js';
import type { SelectResult } from './select-result.js';
import { spreadConstraintByField } from './spread-constraint-by-field.js';

export interface SelectClustersOptions {
  /** The feasible clusters, sorted by sortClusterDetails. */
  clusters: readonly ClusterDetail[];
  placement: Placement;
  replicas: number;
}

/**
 * Returns the clusters the spread constraints keep (Karmada's SelectBestClusters,
 * pkg/scheduler/core/spreadconstraint/select_clusters.go):
 *
 *   | placement                                                  | selection                |
 *   |------------------------------------------------------------|--------------------------|
 *   | no spread constraints                                      | every feasible cluster   |
 *   | Divided + Weighted with static weights or no weightPreference | every feasible cluster (constraints ignored) |
 *   | a `region` constraint                                      | by region (+ cluster limits) |
 *   | a `cluster` constraint                                     | by cluster               |
 *   | only zone / provider / label constraints                   | fails: not supported     |
 *
 * Duplicated placements select without looking at available replicas.
 */
export function selectClusters(options: SelectClustersOptions): SelectResult {
  const { clusters, placement, replicas } = options;
  const constraints = placement.spreadConstraints;
  if (constraints.length === 0 || shouldIgnoreSpreadConstraints(placement)) {
    return { ok: true, clusters: [...clusters] };
  }
  const duplicated = placement.replicaScheduling.replicaSchedulingType === 'Duplicated';
  if (constraints.some((c) => c.spreadByField === 'region')) {
    return selectClustersByRegion({ clusters, placement, replicas });
  }
  if (constraints.some((c) => c.spreadByField === 'cluster')) {
    const limits = spreadConstraintByField(constraints, 'cluster');
    return selectClustersByCluster({ clusters, limits, needReplicas: duplicated ? undefined : replicas });
  }
  return {
    ok: false,
    message: 'spreadConstraints: only spreading by cluster and region is supported (as in Karmada)',
  };
}

/**
 * Returns whether spread constraints are ignored (Karmada's shouldIgnoreSpreadConstraint):
 * Divided + Weighted with no weightPreference, or with a staticWeightList and no dynamicWeight.
 */
export function shouldIgnoreSpreadConstraints(placement: Placement): boolean {
  const strategy = placement.replicaScheduling;
  if (strategy.replicaSchedulingType !== 'Divided') return false;
  if ((strategy.replicaDivisionPreference ?? 'Weighted') !== 'Weighted') return false;
  const preference = strategy.weightPreference;
  if (!preference) return true;
  return (preference.staticWeightList?.length ?? 0) > 0 && preference.dynamicWeight === undefined;
}
