/** Karmada's MaxClusterScore (pkg/scheduler/framework/interface.go). */
export const MAX_CLUSTER_SCORE = 100;

/**
 * Returns the ClusterLocality score (pkg/scheduler/framework/plugins/clusterlocality): 100 for
 * a cluster already in the previous result, 0 otherwise. It is Karmada's only score plugin
 * that scores anything (ClusterAffinity's Score returns 0), so it is the whole score.
 */
export function scoreClusterLocality(cluster: string, previousClusters: ReadonlySet<string>): number {
  return previousClusters.has(cluster) ? MAX_CLUSTER_SCORE : 0;
}
