import type { Placement } from '../model/propagation-policy.js';
import { calcGroupScore } from './calc-group-score.js';
import { sortClusterDetails, type ClusterDetail } from './cluster-detail.js';
import { selectGroups, type GroupInfo } from './select-groups.js';
import type { SelectResult } from './select-result.js';
import { spreadConstraintByField } from './spread-constraint-by-field.js';

export interface SelectClustersByRegionOptions {
  /** The feasible clusters, sorted; every one has a region (the SpreadConstraint filter saw to it). */
  clusters: readonly ClusterDetail[];
  placement: Placement;
  replicas: number;
}

interface Region {
  name: string;
  clusters: ClusterDetail[];
  score: number;
}

/**
 * Returns clusters spread over regions (Karmada's selectBestClustersByRegion,
 * pkg/scheduler/core/spreadconstraint/select_clusters_by_region.go):
 *   1. fewer regions than the region constraint's minGroups ⇒ fails;
 *   2. choose regions with selectGroups (region min/maxGroups, holding at least the cluster
 *      constraint's minGroups clusters); none ⇒ fails;
 *   3. take the best cluster of each chosen region;
 *   4. fill up to the cluster constraint's maxGroups with the chosen regions' other clusters,
 *      best first (score desc, available replicas desc, name).
 */
export function selectClustersByRegion(options: SelectClustersByRegionOptions): SelectResult {
  const { placement } = options;
  const regionLimits = spreadConstraintByField(placement.spreadConstraints, 'region');
  const clusterLimits = spreadConstraintByField(placement.spreadConstraints, 'cluster');
  const regions = groupByRegion(options, regionLimits.minGroups);
  if (regions.size < regionLimits.minGroups) {
    return {
      ok: false,
      message: `spreadConstraints: ${regions.size} feasible region(s) are fewer than minGroups ${regionLimits.minGroups} of the region constraint`,
    };
  }
  const chosen = selectGroups({
    groups: [...regions.values()].map((r) => ({ name: r.name, value: r.clusters.length, weight: r.score })),
    minGroups: regionLimits.minGroups,
    maxGroups: regionLimits.maxGroups,
    targetClusters: clusterLimits.minGroups,
  });
  if (!chosen && regionLimits.maxGroups === 0) {
    return {
      ok: false,
      message:
        'spreadConstraints: the region constraint selects no region: maxGroups is unset or 0 (Karmada reads an unset maxGroups as 0)',
    };
  }
  if (!chosen) {
    return {
      ok: false,
      message: `spreadConstraints: no ${regionLimits.minGroups}..${regionLimits.maxGroups} region(s) hold minGroups ${clusterLimits.minGroups} of the cluster constraint`,
    };
  }
  return { ok: true, clusters: pickClusters(chosen, regions, clusterLimits.maxGroups) };
}

// Steps 3 and 4: the best cluster of each chosen region, then the rest best first.
function pickClusters(
  chosen: readonly GroupInfo[],
  regions: ReadonlyMap<string, Region>,
  maxClusters: number,
): ClusterDetail[] {
  const selected: ClusterDetail[] = [];
  const others: ClusterDetail[] = [];
  for (const group of chosen) {
    const [best, ...rest] = regions.get(group.name)?.clusters ?? [];
    if (best) selected.push(best);
    others.push(...rest);
  }
  const needCount = Math.min(selected.length + others.length, maxClusters);
  const restCount = needCount - selected.length;
  if (restCount > 0) selected.push(...sortClusterDetails(others).slice(0, restCount));
  return selected;
}

function groupByRegion(options: SelectClustersByRegionOptions, minGroups: number): Map<string, Region> {
  const regions = new Map<string, Region>();
  for (const detail of options.clusters) {
    const name = detail.cluster.region;
    if (!name) continue;
    const region = regions.get(name) ?? { name, clusters: [], score: 0 };
    region.clusters.push(detail);
    regions.set(name, region);
  }
  for (const region of regions.values()) {
    region.score = calcGroupScore({ ...options, clusters: region.clusters, minGroups });
  }
  return regions;
}
