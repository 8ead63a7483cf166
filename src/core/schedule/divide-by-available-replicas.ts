import type { TargetCluster } from '../model/binding.js';
import { allocateWebsterSeats } from './allocate-webster-seats.js';
import type { ClusterDetail } from './cluster-detail.js';
import { tieBreakerByKey } from './tie-breaker-by-key.js';

export interface DivideByAvailableReplicasOptions {
  strategy: 'DynamicWeight' | 'Aggregated';
  replicas: number;
  /** The selected clusters, in selection order. */
  candidates: readonly ClusterDetail[];
  /** The previous result (Karmada's spec.clusters). */
  previous: readonly TargetCluster[];
  key: string;
  /** Karmada's Fresh mode: a reschedule was asked for (rescheduleTriggeredAt). */
  fresh?: boolean;
}

export type DivideResult = { ok: true; clusters: TargetCluster[] } | { ok: false; message: string };

interface Division {
  target: number;
  available: TargetCluster[];
  scheduled: TargetCluster[];
}

/**
 * Returns replicas divided by available replicas, in Karmada's Steady mode
 * (assignByDynamicStrategy, pkg/scheduler/core/assignment.go and division_algorithm.go):
 *
 *   | previous replicas on candidates vs desired | what is divided                             |
 *   |--------------------------------------------|---------------------------------------------|
 *   | equal                                      | nothing: the previous result stands         |
 *   | more (scale down)                          | the desired total, weighted by the previous replicas |
 *   | fewer, or none (scale up, first schedule)  | the increment, weighted by replicas each candidate can still take, added to the previous |
 *
 * Previous replicas on clusters no longer selected are dropped and count as an increment.
 * Dividing: the weights must add up to the target or it fails; Aggregated first keeps the
 * previously used clusters at the front and only as many clusters as needed to reach the
 * target; the target is then shared by the Webster method. Weights are sorted descending
 * with a stable sort (Go's sort.Sort is an insertion sort, so stable, up to 12 clusters).
 *
 * Karmada's Fresh mode (a WorkloadRebalancer's rescheduleTriggeredAt, dynamicFreshScale in
 * division_algorithm.go) divides the whole desired total as a first schedule would, each
 * candidate weighted by what it can still take plus what it holds now (availableReplicas),
 * with no previous clusters kept at the front.
 */
export function divideByAvailableReplicas(options: DivideByAvailableReplicasOptions): DivideResult {
  if (options.fresh) {
    const available = options.candidates.map((c) => ({ name: c.name, replicas: c.availableReplicas }));
    return divide(options, { target: options.replicas, available: sortDescending(available), scheduled: [] });
  }
  const names = new Set(options.candidates.map((c) => c.name));
  const scheduled = options.previous.filter((c) => names.has(c.name)).map((c) => ({ ...c }));
  const assigned = sumOf(scheduled);
  if (assigned === options.replicas) return { ok: true, clusters: scheduled };
  if (assigned > options.replicas) {
    return divide(options, { target: options.replicas, available: sortDescending(scheduled), scheduled: [] });
  }
  const available = options.candidates.map((c) => ({ name: c.name, replicas: c.allocatableReplicas }));
  return divide(options, {
    target: options.replicas - assigned,
    available: sortDescending(available),
    scheduled,
  });
}

function divide(options: DivideByAvailableReplicasOptions, division: Division): DivideResult {
  const total = sumOf(division.available);
  if (total < division.target) {
    return {
      ok: false,
      message: `Clusters available replicas ${total} are not enough to schedule ${division.target}`,
    };
  }
  const weights = options.strategy === 'Aggregated' ? fewestClusters(division) : division.available;
  const parties = allocateWebsterSeats({
    seats: division.target,
    votes: new Map(weights.map((c) => [c.name, c.replicas])),
    tieBreaker: tieBreakerByKey(options.key),
  });
  const spread = sumOf(weights) === 0 ? [] : parties.map((p) => ({ name: p.name, replicas: p.seats }));
  return { ok: true, clusters: mergeTargetClusters(division.scheduled, spread) };
}

// Karmada's resortAvailableClusters + cut: clusters that held replicas first, then just
// enough clusters, in order, for their available replicas to reach the target.
function fewestClusters(division: Division): TargetCluster[] {
  const prior = new Set(division.scheduled.filter((c) => c.replicas > 0).map((c) => c.name));
  const ordered = [
    ...division.available.filter((c) => prior.has(c.name)),
    ...division.available.filter((c) => !prior.has(c.name)),
  ];
  let sum = 0;
  for (let i = 0; i < ordered.length; i++) {
    sum += (ordered[i] as TargetCluster).replicas;
    if (sum >= division.target) return ordered.slice(0, i + 1);
  }
  return ordered;
}

// Karmada's MergeTargetClusters (pkg/util/binding.go): replicas of the same cluster add up.
function mergeTargetClusters(
  old: readonly TargetCluster[],
  added: readonly TargetCluster[],
): TargetCluster[] {
  const merged = new Map<string, number>();
  for (const c of [...added, ...old]) merged.set(c.name, (merged.get(c.name) ?? 0) + c.replicas);
  return [...merged].map(([name, replicas]) => ({ name, replicas }));
}

function sortDescending(clusters: readonly TargetCluster[]): TargetCluster[] {
  return [...clusters].sort((a, b) => b.replicas - a.replicas);
}

function sumOf(clusters: readonly TargetCluster[]): number {
  return clusters.reduce((sum, c) => sum + c.replicas, 0);
}
