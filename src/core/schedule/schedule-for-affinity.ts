import type { ClusterDiagnosis, ScheduleFailureReason, TargetCluster } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { ClusterAffinity } from '../model/selectors.js';
import { assignReplicas } from './assign-replicas.js';
import { runClusterFilters } from './cluster-filter.js';
import type { FilterContext } from './filter-plugin.js';
import { sortClusterDetails, type ClusterDetail } from './cluster-detail.js';
import { estimateAvailableReplicas } from './estimate-available-replicas.js';
import type { ScheduleInput } from './schedule-input.js';
import { scoreClusterLocality } from './score-cluster-locality.js';
import { selectClusters } from './select-clusters.js';

/**
 * One scheduling attempt. `fitError` tells a filter failure (no cluster passed the filters,
 * Karmada's FitError, after which Karmada clears the binding's clusters) from a later failure
 * (spread constraints or replicas, after which Karmada leaves the previous clusters in place);
 * `reason` is the Scheduled condition's reason Karmada writes for it.
 */
export type AffinityOutcome =
  | { ok: true; clusters: TargetCluster[] }
  | {
      ok: false;
      fitError: boolean;
      reason: ScheduleFailureReason;
      message: string;
      diagnosis: ClusterDiagnosis[];
    };

/**
 * Returns the result of scheduling under one affinity (Karmada's genericScheduler.Schedule,
 * pkg/scheduler/core/generic_scheduler.go): filter every cluster, score the feasible ones,
 * estimate their available replicas, sort, select by spread constraints, assign replicas.
 */
export function scheduleForAffinity(
  input: ScheduleInput,
  affinity: ClusterAffinity | undefined,
): AffinityOutcome {
  const previousClusters = new Set((input.previous?.clusters ?? []).map((c) => c.name));
  const { feasible, diagnosis } = filterClusters(input, affinity, previousClusters);
  if (feasible.length === 0) {
    const message = fitErrorMessage(input.clusters.length);
    return { ok: false, fitError: true, reason: 'NoClusterFit', message, diagnosis };
  }
  const details = detailsOf(input, feasible, previousClusters);
  const selected = selectClusters({
    clusters: details,
    placement: input.placement,
    replicas: input.replicas,
  });
  // Karmada's selectClusters returns a plain error: the condition's reason is SchedulerError.
  if (!selected.ok) {
    return { ok: false, fitError: false, reason: 'SchedulerError', message: selected.message, diagnosis: [] };
  }
  return assignTo(input, selected.clusters);
}

// Karmada's findClustersThatFit: every registered cluster through the filter plugins.
function filterClusters(
  input: ScheduleInput,
  affinity: ClusterAffinity | undefined,
  previousClusters: ReadonlySet<string>,
): { feasible: Cluster[]; diagnosis: ClusterDiagnosis[] } {
  const { resource, placement, clusterStatus } = input;
  const context: FilterContext = { resource, placement, affinity, clusterStatus, previousClusters };
  const feasible: Cluster[] = [];
  const diagnosis: ClusterDiagnosis[] = [];
  for (const cluster of input.clusters) {
    const verdict = runClusterFilters(cluster, context);
    if (verdict.ok) feasible.push(cluster);
    else diagnosis.push({ cluster: cluster.name, reason: verdict.reason });
  }
  // A name no cluster has is no cluster to filter, but it is why the affinity fits nowhere.
  const registered = new Set(input.clusters.map((c) => c.name));
  for (const name of affinity?.clusterNames ?? [])
    if (!registered.has(name)) diagnosis.push({ cluster: name, reason: 'not a registered cluster' });
  return { feasible, diagnosis };
}

// Karmada's assignReplicas step; on failure, each candidate's room is the diagnosis.
function assignTo(input: ScheduleInput, candidates: readonly ClusterDetail[]): AffinityOutcome {
  const request = input.replicaRequest;
  const assigned = assignReplicas({
    candidates,
    placement: input.placement,
    replicas: input.replicas,
    hasReplicaRequirements: request !== undefined && (request.cpuMilli > 0 || request.memoryBytes > 0),
    previous: input.previous?.clusters ?? [],
    key: input.key,
    emptyWorkloadPropagation: input.emptyWorkloadPropagation ?? false,
  });
  if (assigned.ok) return { ok: true, clusters: assigned.clusters };
  const diagnosis = candidates.map((c) => ({
    cluster: c.name,
    reason: `can take ${c.allocatableReplicas} more replica(s)`,
  }));
  // Not enough room is Karmada's UnschedulableError (division_algorithm.go, common.go); no
  // candidate at all is a plain error there.
  const reason = candidates.length === 0 ? 'SchedulerError' : 'Unschedulable';
  return { ok: false, fitError: false, reason, message: assigned.message, diagnosis };
}

// Karmada's GroupClustersWithScore + generateClustersInfo: available replicas are the
// estimate plus what the previous result already placed there.
function detailsOf(
  input: ScheduleInput,
  feasible: Cluster[],
  previousClusters: Set<string>,
): ClusterDetail[] {
  const estimates = estimateAvailableReplicas({
    clusters: feasible,
    clusterStatus: input.clusterStatus,
    replicas: input.replicas,
    replicaRequest: input.replicaRequest,
  });
  const assignedHere = new Map((input.previous?.clusters ?? []).map((c) => [c.name, c.replicas]));
  const details = feasible.map((cluster) => {
    const allocatable = estimates.get(cluster.name) ?? 0;
    return {
      name: cluster.name,
      cluster,
      score: scoreClusterLocality(cluster.name, previousClusters),
      availableReplicas: allocatable + (assignedHere.get(cluster.name) ?? 0),
      allocatableReplicas: allocatable,
    };
  });
  return sortClusterDetails(details);
}

// Karmada's FitError text ("0/N clusters are available: …"); the reasons are not repeated
// here because every cluster's own reason is in the diagnosis.
function fitErrorMessage(total: number): string {
  return total === 0 ? '0/0 clusters are available: no cluster exists' : `0/${total} clusters are available`;
}
