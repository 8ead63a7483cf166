// The trailers of failover decisions (docs/architecture.md#trailers), on the bindings commit of
// the pass that made them and on the cluster commits they change:
//
//   Gitfleet-Cluster-Judged: member2=Unknown                  the monitor judged the cluster (bindings commit)
//   Gitfleet-Wake-At: 2026-12-01T15:04:05.000Z                the earliest time a decision falls due (bindings commit)
//   Gitfleet-Eviction: shop/Deployment.apps/web from member2: TaintUntolerated ...
//   Gitfleet-Eviction-Done: shop/Deployment.apps/web from member2: HealthyOnNewClusters ...
//   Gitfleet-Taint: member2 +cluster.karmada.io/unreachable:NoExecute: ...
//   Gitfleet-Rebalance: <rebalancer>: ...
//   Gitfleet-Fleet-Disruption: 3 of 3 clusters are not Ready (...): ... no NoExecute eviction ...
//
// The wake-at and judged trailers are part of "is this pass needed?": a pass is needed when the
// time recorded has come or the monitor's verdicts differ from the ones recorded.
import type { FailoverDecision } from '../model/failover.js';
import type { ClusterVerdict } from './monitored-status.js';

export const clusterJudgedTrailer = 'Gitfleet-Cluster-Judged';
export const wakeAtTrailer = 'Gitfleet-Wake-At';

/** Returns `Gitfleet-Cluster-Judged` lines for the verdicts, sorted by cluster. */
export function judgedTrailerLines(verdicts: ReadonlyMap<string, ClusterVerdict>): string[] {
  return [...verdicts]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([cluster, v]) => `${clusterJudgedTrailer}: ${cluster}=${v.status}`);
}

/** Returns whether the recorded judged values (`cluster=Unknown`) are exactly the verdicts'. */
export function sameJudged(
  recorded: readonly string[],
  verdicts: ReadonlyMap<string, ClusterVerdict>,
): boolean {
  const lines = judgedTrailerLines(verdicts).map((l) => l.slice(clusterJudgedTrailer.length + 2));
  return recorded.length === lines.length && [...recorded].sort().every((v, i) => v === lines[i]);
}

const trailerOf: Partial<Record<FailoverDecision['type'], string>> = {
  Evicted: 'Gitfleet-Eviction',
  EvictionDone: 'Gitfleet-Eviction-Done',
  TaintAdded: 'Gitfleet-Taint',
  TaintRemoved: 'Gitfleet-Taint',
  Rebalanced: 'Gitfleet-Rebalance',
  FleetDisruption: 'Gitfleet-Fleet-Disruption',
};

/** Returns one trailer line per decision that has one, in decision order. */
export function decisionTrailerLines(decisions: readonly FailoverDecision[]): string[] {
  const lines: string[] = [];
  for (const d of decisions) {
    const key = trailerOf[d.type];
    if (key) lines.push(`${key}: ${d.message.replace(/\s*\n\s*/g, ' ')}`);
  }
  return lines;
}
