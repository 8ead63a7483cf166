import type { Cluster } from '../model/cluster.js';

/** A feasible cluster as the selection and assignment steps see it (Karmada's ClusterDetailInfo). */
export interface ClusterDetail {
  name: string;
  cluster: Cluster;
  score: number;
  /** Replicas it can take plus those the previous result gave it (Karmada's AvailableReplicas). */
  availableReplicas: number;
  /** Replicas it can still take, by the estimator (Karmada's AllocatableReplicas). */
  allocatableReplicas: number;
  /** 0: the inline affinity's group; i+1: the term's overflowAffinities[i] (Karmada's OverflowOrder). */
  overflowOrder?: number;
}

/**
 * Returns the details sorted as Karmada's sortClusters with the available-replicas comparator
 * (pkg/scheduler/core/spreadconstraint/util.go and group_clusters.go generateClustersInfo):
 *
 *   | key                | order      |
 *   |--------------------|------------|
 *   | overflow order     | ascending (0 without overflowAffinities)  |
 *   | score              | descending |
 *   | available replicas | descending |
 *   | name               | ascending  |
 */
export function sortClusterDetails(details: readonly ClusterDetail[]): ClusterDetail[] {
  return [...details].sort((a, b) => {
    const overflow = (a.overflowOrder ?? 0) - (b.overflowOrder ?? 0);
    if (overflow !== 0) return overflow;
    if (a.score !== b.score) return b.score - a.score;
    if (a.availableReplicas !== b.availableReplicas) return b.availableReplicas - a.availableReplicas;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}
