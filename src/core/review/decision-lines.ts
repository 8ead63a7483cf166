// The decision trailers a commit carries, as `gitfleet log` prints them under an entry: the
// cluster commit's own (an eviction that took objects off the cluster, the rollout step that
// moved or held it) and the decisions of the bindings commit of the same pass
// (core/failover/failover-trailers.ts, core/rollout/rollout-trailers.ts), which say why replicas
// left one cluster and landed on another, or why a cluster got a change before another.
import { parseTrailers } from '../publish/commit-trailers.js';

/** The trailer keys of failover and rollout decisions, in the order they are printed. */
export const decisionTrailerKeys = [
  'Gitfleet-Cluster-Judged',
  'Gitfleet-Taint',
  'Gitfleet-Eviction',
  'Gitfleet-Eviction-Done',
  'Gitfleet-Rebalance',
  'Gitfleet-Rollout',
  'Gitfleet-Rollback',
] as const;

/** Returns a commit's decision trailers as `Key: value` lines, grouped by key in the order above. */
export function decisionLinesOf(message: string): string[] {
  const trailers = parseTrailers(message);
  return decisionTrailerKeys.flatMap((key) => (trailers.get(key) ?? []).map((v) => `${key}: ${v}`));
}
