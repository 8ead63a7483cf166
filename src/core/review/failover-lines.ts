// The failover trailers a commit carries, as `gitfleet log` prints them under an entry: the
// cluster commit's own (an eviction that took objects off the cluster) and the decisions of the
// bindings commit of the same pass (core/failover/failover-trailers.ts), which say why replicas
// left one cluster and landed on another.
import { parseTrailers } from '../publish/commit-trailers.js';

/** The trailer keys of failover decisions, in the order they are printed. */
export const failoverTrailerKeys = [
  'Gitfleet-Cluster-Judged',
  'Gitfleet-Taint',
  'Gitfleet-Eviction',
  'Gitfleet-Eviction-Done',
  'Gitfleet-Rebalance',
] as const;

/** Returns a commit's failover trailers as `Key: value` lines, grouped by key in the order above. */
export function failoverLinesOf(message: string): string[] {
  const trailers = parseTrailers(message);
  return failoverTrailerKeys.flatMap((key) => (trailers.get(key) ?? []).map((v) => `${key}: ${v}`));
}
