import type { Placement } from '../model/propagation-policy.js';
import type { ClusterDetail } from './cluster-detail.js';

export interface CalcGroupScoreOptions {
  /** The group's clusters, in the sorted order of the feasible clusters. */
  clusters: readonly ClusterDetail[];
  placement: Placement;
  replicas: number;
  /** minGroups of the group's spread constraint (e.g. the region constraint). */
  minGroups: number;
}

// Karmada's weightUnit: replicas count in thousands so that they outweigh the average
// cluster score (0..100) and the score only breaks ties.
const WEIGHT_UNIT = 1000;

/**
 * Returns a group's score (Karmada's calcGroupScore / calcGroupScoreForDuplicate,
 * pkg/scheduler/core/spreadconstraint/group_clusters.go):
 *
 *   Duplicated: valid = clusters with available ≥ replicas;
 *               score = valid·1000 + ⌊Σscore(valid) / valid⌋, or 0 when none is valid.
 *   Divided:    target = ⌈replicas / minGroups⌉; walk the clusters in order summing available
 *               replicas and scores until at least max(minGroups, cluster minGroups) clusters
 *               were taken and the sum reaches target;
 *               sum < target ⇒ sum·1000 + ⌊Σscore / all clusters⌋,
 *               otherwise      target·1000 + ⌊Σscore / taken clusters⌋.
 */
export function calcGroupScore(options: CalcGroupScoreOptions): number {
  const { clusters, placement, replicas, minGroups } = options;
  if (placement.replicaScheduling.replicaSchedulingType === 'Duplicated') {
    const valid = clusters.filter((c) => c.availableReplicas >= replicas);
    if (valid.length === 0) return 0;
    return valid.length * WEIGHT_UNIT + Math.floor(sumOf(valid, (c) => c.score) / valid.length);
  }
  const target = Math.ceil(replicas / minGroups);
  const clusterConstraint = placement.spreadConstraints.filter((s) => s.spreadByField === 'cluster').at(-1);
  const clusterMinGroups = Math.max(clusterConstraint?.minGroups ?? 0, minGroups);
  let available = 0;
  let score = 0;
  let taken = 0;
  for (const cluster of clusters) {
    available += cluster.availableReplicas;
    score += cluster.score;
    taken++;
    if (taken >= clusterMinGroups && available >= target) break;
  }
  if (available < target) return available * WEIGHT_UNIT + Math.floor(score / clusters.length);
  return target * WEIGHT_UNIT + Math.floor(score / taken);
}

function sumOf<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((sum, item) => sum + value(item), 0);
}
