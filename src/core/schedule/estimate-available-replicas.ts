import type { Cluster, ClusterStatus } from '../model/cluster.js';
import { estimateMaxReplicas, MAX_INT32 } from './estimate-max-replicas.js';
import type { ReplicaRequest } from './replica-request-of.js';

export interface EstimateAvailableReplicasOptions {
  clusters: readonly Cluster[];
  clusterStatus: ReadonlyMap<string, ClusterStatus>;
  /** The template's desired replicas. */
  replicas: number;
  replicaRequest?: ReplicaRequest | undefined;
}

/**
 * Returns, per cluster, how many replicas it can still take (Karmada's calAvailableReplicas,
 * pkg/scheduler/core/util.go, with only the general estimator):
 *
 *   | case                                         | available replicas per cluster        |
 *   |----------------------------------------------|---------------------------------------|
 *   | replicas = 0 (not a workload)                | MaxInt32 (Karmada skips estimating)   |
 *   | cluster reports a resourceSummary            | the general estimator's answer        |
 *   | some clusters report one, this one does not  | 0 (the general estimator's answer)    |
 *   | no cluster reports a resourceSummary         | `replicas` (fallback, see below)      |
 *
 * Fallback without status: Karmada bounds a cluster no estimator could answer for at the
 * desired replicas (MaxInt32 → spec.replicas). gitfleet applies that bound when no candidate
 * has reported resources yet (a fleet without agents, or a local render), so dynamic weights
 * divide equally, like static weight 1 each, and Aggregated puts every replica on the first
 * cluster in the sort order, a previously used one first. Once any cluster reports, the
 * silent ones count as 0 available, as Karmada's general estimator counts a cluster without
 * a summary.
 */
export function estimateAvailableReplicas(options: EstimateAvailableReplicasOptions): Map<string, number> {
  const { clusters, clusterStatus, replicas, replicaRequest } = options;
  const available = new Map<string, number>();
  const anyKnown = clusters.some((c) => clusterStatus.get(c.name)?.resourceSummary !== undefined);
  for (const cluster of clusters) {
    const summary = clusterStatus.get(cluster.name)?.resourceSummary;
    if (replicas === 0) available.set(cluster.name, MAX_INT32);
    else if (!anyKnown) available.set(cluster.name, replicas);
    else available.set(cluster.name, summary ? estimateMaxReplicas(summary, replicaRequest) : 0);
  }
  return available;
}
