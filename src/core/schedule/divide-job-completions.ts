import type { Binding } from '../model/binding.js';
import type { KubeObject } from '../model/kube-object.js';
import { replicaKindOf, templateJobCompletions } from '../override/template-replicas.js';
import { allocateWebsterSeats } from './allocate-webster-seats.js';
import { tieBreakerByKey } from './tie-breaker-by-key.js';

/**
 * Returns each cluster's share of a Job's `spec.completions`, or undefined when they are not
 * divided. Karmada (pkg/controllers/binding/common.go divideReplicasByJobCompletions) divides
 * them only for Divided placements of a Job with replicas > 0 and completions set, spreading
 * them over the target clusters by Webster's method with the clusters' replicas as weights.
 */
export function divideJobCompletions(
  binding: Binding,
  object: KubeObject,
): ReadonlyMap<string, number> | undefined {
  if (replicaKindOf(object) !== 'job' || binding.replicas <= 0) return undefined;
  if (binding.placement.replicaScheduling.replicaSchedulingType !== 'Divided') return undefined;
  if (binding.schedule.type !== 'Scheduled') return undefined;
  const completions = templateJobCompletions(object);
  if (
    completions === undefined ||
    (object.spec as { completions?: unknown } | undefined)?.completions === undefined
  ) {
    return undefined;
  }
  const votes = new Map(binding.schedule.clusters.map((c) => [c.name, c.replicas] as const));
  const seats = allocateWebsterSeats({ seats: completions, votes, tieBreaker: tieBreakerByKey(binding.key) });
  return new Map(seats.map((p) => [p.name, p.seats] as const));
}
