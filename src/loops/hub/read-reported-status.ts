// What each cluster last reported about itself (kubernetesVersion, apiEnablements), read before
// the template sources render: Helm's `.Capabilities` per cluster (docs/sources.md#per-cluster-rendering).
// Only reports the hub would accept are read: signed by the cluster's key when its registration
// names one (accept-status-heads.ts), from the status branches of the hub's own repository.
import type { ClusterStatus } from '../../core/model/cluster.js';
import type { Fleet } from '../../core/model/fleet.js';
import { acceptStatusHeads } from './accept-status-heads.js';
import type { ReadContext } from './read-git-state.js';
import { clusterStatusOf, readAgentReports, readStatusHeads } from './read-status-branches.js';

/** Returns the status each cluster's accepted report carries, by cluster. */
export async function readReportedStatus(
  read: ReadContext,
  fleet: Fleet,
): Promise<Map<string, ClusterStatus>> {
  const heads = await readStatusHeads(read, fleet.config.branchPrefix);
  const accepted = await acceptStatusHeads({ read, fleet, heads });
  return clusterStatusOf(await readAgentReports(read, accepted.heads));
}
