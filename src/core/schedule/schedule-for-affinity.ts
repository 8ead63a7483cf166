import type { ClusterDiagnosis, ScheduleFailureReason, TargetCluster } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { ClusterAffinityTerm } from '../model/propagation-policy.js';
import type { ClusterAffinity } from '../model/selectors.js';
import { clusterMatches } from '../select/cluster-matches.js';
import { assignReplicas } from './assign-replicas.js';
import { failsOnlyForEviction, runClusterFilters } from './cluster-filter.js';
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
  | {
      ok: true;
      clusters: TargetCluster[];
      /** The refusals by filters other than ClusterAffinity (ScheduleResult's `refused`). */
      refused: ClusterDiagnosis[];
    }
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
  affinity: ClusterAffinity | ClusterAffinityTerm | undefined,
): AffinityOutcome {
  const previousClusters = new Set((input.previous?.clusters ?? []).map((c) => c.name));
  const overflow = affinity && 'overflowAffinities' in affinity ? affinity.overflowAffinities : undefined;
  const groups = [affinity, ...(overflow && isWorkload(input) ? overflow : [])];
  const { feasible, diagnosis } = filterClusters(input, groups, previousClusters);
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
  const outcome = assignTo(input, selected.clusters, overflow !== undefined);
  return outcome.ok ? { ...outcome, refused: diagnosis.filter(isNotAffinity) } : outcome;
}

// The affinity's refusals are what the user chose; the others are facts about the clusters.
function isNotAffinity(d: ClusterDiagnosis): boolean {
  return d.filter !== 'ClusterAffinity' && d.filter !== 'Unregistered';
}

// Karmada's ResourceBindingSpec.IsWorkload: replicas or a resource request per replica.
function isWorkload(input: ScheduleInput): boolean {
  const request = input.replicaRequest;
  return input.replicas > 0 || (request !== undefined && (request.cpuMilli > 0 || request.memoryBytes > 0));
}

/** A feasible cluster and its overflow order (the index of the affinity group it matched first). */
interface Feasible {
  cluster: Cluster;
  overflowOrder: number;
}

// Karmada's findClustersThatFit: every registered cluster through the filter plugins. The
// affinity filter passes a cluster of any group (the inline affinity, then a workload's
// overflowAffinities); its overflow order is the first group it matches (getClusterOverflowOrder).
function filterClusters(
  input: ScheduleInput,
  groups: readonly (ClusterAffinity | undefined)[],
  previousClusters: ReadonlySet<string>,
): { feasible: Feasible[]; diagnosis: ClusterDiagnosis[] } {
  const { resource, placement, clusterStatus } = input;
  const affinity = groups[0];
  const feasible: Feasible[] = [];
  const diagnosis: ClusterDiagnosis[] = [];
  for (const cluster of input.clusters) {
    const matched =
      groups.length === 1 ? 0 : groups.findIndex((g) => g !== undefined && clusterMatches(cluster, g));
    const overflowOrder = Math.max(0, matched);
    const inForce = groups[overflowOrder];
    const context: FilterContext = {
      resource,
      placement,
      affinity: inForce,
      clusterStatus,
      ...(input.clusterTaints ? { clusterTaints: input.clusterTaints } : {}),
      ...(input.fleetApis ? { fleetApis: input.fleetApis } : {}),
      previousClusters,
      ...(input.previous?.evictionTasks ? { evictionTasks: input.previous.evictionTasks } : {}),
    };
    const verdict = runClusterFilters(cluster, context);
    if (verdict.ok) feasible.push({ cluster, overflowOrder });
    else
      diagnosis.push({
        cluster: cluster.name,
        filter: verdict.filter,
        reason: verdict.reason,
        ...(verdict.taint ? { taint: verdict.taint } : {}),
        ...(context.evictionTasks && failsOnlyForEviction(cluster, context) ? { onlyEviction: true } : {}),
      });
  }
  // A name no cluster has is no cluster to filter, but it is why the affinity fits nowhere.
  const registered = new Set(input.clusters.map((c) => c.name));
  for (const name of affinity?.clusterNames ?? [])
    if (!registered.has(name))
      diagnosis.push({ cluster: name, filter: 'Unregistered', reason: 'not a registered cluster' });
  return { feasible, diagnosis };
}

// Karmada's assignReplicas step; on failure, each candidate's room is the diagnosis.
function assignTo(
  input: ScheduleInput,
  candidates: readonly ClusterDetail[],
  overflow: boolean,
): AffinityOutcome {
  const request = input.replicaRequest;
  const assigned = assignReplicas({
    candidates,
    placement: input.placement,
    replicas: input.replicas,
    hasReplicaRequirements: request !== undefined && (request.cpuMilli > 0 || request.memoryBytes > 0),
    previous: input.previous?.clusters ?? [],
    key: input.key,
    emptyWorkloadPropagation: input.emptyWorkloadPropagation ?? false,
    overflow,
    ...(input.fresh ? { fresh: true } : {}),
  });
  if (assigned.ok) return { ok: true, clusters: assigned.clusters, refused: [] };
  const diagnosis = candidates.map((c): ClusterDiagnosis => ({
    cluster: c.name,
    filter: 'Capacity',
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
  feasible: Feasible[],
  previousClusters: Set<string>,
): ClusterDetail[] {
  const estimates = estimateAvailableReplicas({
    clusters: feasible.map((f) => f.cluster),
    clusterStatus: input.clusterStatus,
    replicas: input.replicas,
    replicaRequest: input.replicaRequest,
  });
  const assignedHere = new Map((input.previous?.clusters ?? []).map((c) => [c.name, c.replicas]));
  const details = feasible.map(({ cluster, overflowOrder }) => {
    const allocatable = estimates.get(cluster.name) ?? 0;
    return {
      name: cluster.name,
      cluster,
      ...(overflowOrder > 0 ? { overflowOrder } : {}),
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
