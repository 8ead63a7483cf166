import type { TargetCluster } from '../model/binding.js';
import type { Placement } from '../model/propagation-policy.js';
import type { ClusterDetail } from './cluster-detail.js';
import { divideByAvailableReplicas, type DivideResult } from './divide-by-available-replicas.js';
import { divideByStaticWeight } from './divide-by-static-weight.js';

export interface AssignReplicasOptions {
  /** The selected clusters, in selection order. */
  candidates: readonly ClusterDetail[];
  placement: Placement;
  replicas: number;
  /** Whether the template requests resources per replica (Karmada's ReplicaRequirements ≠ nil). */
  hasReplicaRequirements: boolean;
  previous: readonly TargetCluster[];
  key: string;
  /** Karmada's --enable-empty-workload-propagation: keep selected clusters that get 0 replicas. */
  emptyWorkloadPropagation: boolean;
  /** The term in force has overflowAffinities: fill the candidates' overflow tiers in order. */
  overflow?: boolean;
  /** A reschedule was asked for: divide by available replicas in Karmada's Fresh mode. */
  fresh?: boolean;
}

/**
 * Returns the replicas per selected cluster, sorted by name (Karmada's AssignReplicas and
 * assignReplicasToClusters, pkg/scheduler/core/common.go and assignment.go):
 *
 *   | template / placement                       | strategy                                  |
 *   |--------------------------------------------|-------------------------------------------|
 *   | replicas 0 and no resource requests        | every selected cluster, 0 replicas (not a workload) |
 *   | Duplicated                                 | every selected cluster gets `replicas`    |
 *   | Divided + Aggregated                       | by available replicas, fewest clusters    |
 *   | Divided + Weighted + dynamicWeight         | by available replicas                     |
 *   | Divided + Weighted otherwise               | by static weights (Webster)               |
 *
 * Workload results then drop clusters that got 0 replicas, unless emptyWorkloadPropagation
 * (off by default, as in Karmada) adds every selected cluster back with 0. So a workload with
 * resource requests scaled to 0 is scheduled nowhere by default, exactly as in Karmada.
 */
export function assignReplicas(options: AssignReplicasOptions): DivideResult {
  const { candidates, replicas } = options;
  if (candidates.length === 0) return { ok: false, message: 'no clusters available to schedule' };
  if (replicas === 0 && !options.hasReplicaRequirements) {
    return { ok: true, clusters: byName(candidates.map((c) => ({ name: c.name, replicas: 0 }))) };
  }
  const assigned = options.overflow ? assignByOverflowTier(options) : assignWorkload(options);
  if (!assigned.ok) return assigned;
  const kept = assigned.clusters.filter((c) => c.replicas > 0);
  if (options.emptyWorkloadPropagation) {
    const names = new Set(kept.map((c) => c.name));
    for (const c of candidates) if (!names.has(c.name)) kept.push({ name: c.name, replicas: 0 });
  }
  return { ok: true, clusters: byName(kept) };
}

function assignWorkload(options: AssignReplicasOptions): DivideResult {
  const { candidates, placement, replicas, previous, key } = options;
  const fresh = options.fresh ? { fresh: true } : {};
  const strategy = placement.replicaScheduling;
  if (strategy.replicaSchedulingType === 'Duplicated') {
    return { ok: true, clusters: candidates.map((c) => ({ name: c.name, replicas })) };
  }
  if (strategy.replicaDivisionPreference === 'Aggregated') {
    return divideByAvailableReplicas({
      strategy: 'Aggregated',
      replicas,
      candidates,
      previous,
      key,
      ...fresh,
    });
  }
  if (strategy.weightPreference?.dynamicWeight !== undefined) {
    return divideByAvailableReplicas({
      strategy: 'DynamicWeight',
      replicas,
      candidates,
      previous,
      key,
      ...fresh,
    });
  }
  const clusters = divideByStaticWeight({
    replicas,
    clusters: candidates.map((c) => c.cluster),
    staticWeightList: strategy.weightPreference?.staticWeightList,
    key,
  });
  return { ok: true, clusters };
}

/**
 * Karmada's assignWorkloadReplicas with overflow (pkg/scheduler/core/common.go): the tiers
 * (overflow order 0, 1, …) in order, each given min(remaining, its clusters' available
 * replicas) to divide among its own clusters by the usual strategy, until none remain. So a
 * scale-up spills into the overflow groups only when the primary one is full, and a scale-down
 * empties the last groups first.
 */
function assignByOverflowTier(options: AssignReplicasOptions): DivideResult {
  const tiers = new Map<number, ClusterDetail[]>();
  for (const c of options.candidates) {
    const order = c.overflowOrder ?? 0;
    tiers.set(order, [...(tiers.get(order) ?? []), c]);
  }
  const clusters: TargetCluster[] = [];
  let remaining = options.replicas;
  for (const order of [...tiers.keys()].sort((a, b) => a - b)) {
    const tier = tiers.get(order)!;
    const available = tier.reduce((sum, c) => sum + c.availableReplicas, 0);
    const replicas = Math.min(remaining, available);
    const assigned = assignWorkload({ ...options, candidates: tier, replicas });
    if (!assigned.ok) return assigned;
    clusters.push(...assigned.clusters.filter((c) => c.replicas > 0));
    remaining -= replicas;
    if (remaining <= 0) break;
  }
  if (remaining > 0) return { ok: false, message: 'Clusters available replicas are not enough to schedule.' };
  return { ok: true, clusters };
}

function byName(clusters: TargetCluster[]): TargetCluster[] {
  return clusters.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
