// Owned by the taints work: the hub's taints per cluster from conditions and ClusterTaintPolicies.
import type { ClusterTaintsInput, ClusterTaintsOutput } from './failover-input.js';

/** Returns the taints the hub keeps on every registered cluster (not built yet: none). */
export function planTaintsOfClusters(input: ClusterTaintsInput): ClusterTaintsOutput {
  void input;
  return { taints: new Map(), files: new Map(), decisions: [] };
}
