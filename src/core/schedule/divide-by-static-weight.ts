import type { TargetCluster } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { StaticClusterWeight } from '../model/propagation-policy.js';
import { clusterMatches } from '../select/cluster-matches.js';
import { allocateWebsterSeats } from './allocate-webster-seats.js';
import { tieBreakerByKey } from './tie-breaker-by-key.js';

export interface DivideByStaticWeightOptions {
  replicas: number;
  /** The selected clusters. */
  clusters: readonly Cluster[];
  /** `weightPreference.staticWeightList`; absent or empty ⇒ every cluster weighs 1. */
  staticWeightList: readonly StaticClusterWeight[] | undefined;
  /** The tie-break key (refKey of the template). */
  key: string;
}

/**
 * Returns the replicas of each weighted cluster by the Webster method, sorted by name,
 * zero-replica clusters included (Karmada's assignByStaticWeightStrategy and
 * getStaticWeightInfoList, pkg/scheduler/core/assignment.go and division_algorithm.go):
 *   - a cluster weighs the maximum weight of all rules whose targetCluster matches it;
 *   - clusters weighing 0 (matched by no rule) take no part: they get nothing;
 *   - if no cluster weighs anything (or there is no list), every cluster weighs 1.
 */
export function divideByStaticWeight(options: DivideByStaticWeightOptions): TargetCluster[] {
  const rules = options.staticWeightList ?? [];
  const votes = new Map<string, number>();
  for (const cluster of options.clusters) {
    const weight = rules.reduce(
      (max, rule) => (rule.weight > max && clusterMatches(cluster, rule.targetCluster) ? rule.weight : max),
      0,
    );
    if (weight > 0) votes.set(cluster.name, weight);
  }
  if (votes.size === 0) for (const cluster of options.clusters) votes.set(cluster.name, 1);
  const parties = allocateWebsterSeats({
    seats: options.replicas,
    votes,
    tieBreaker: tieBreakerByKey(options.key),
  });
  return parties.map((p) => ({ name: p.name, replicas: p.seats }));
}
