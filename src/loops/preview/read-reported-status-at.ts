// The clusters' reports as a preview reads them (`gitfleet diff`): what the hub would give Helm's
// .Capabilities per cluster on its next pass (docs/sources.md#per-cluster-rendering).
import { openObjectStore } from '../../adapters/git/object-store.js';
import type { ClusterStatus } from '../../core/model/cluster.js';
import type { Fleet } from '../../core/model/fleet.js';
import { createHubPassCache } from '../hub/hub-pass-cache.js';
import { readReportedStatus } from '../hub/read-reported-status.js';

/** Returns the status each cluster's accepted report carries, read from a repository by path. */
export function readReportedStatusAt(gitdir: string, fleet: Fleet): Promise<Map<string, ClusterStatus>> {
  const cache = createHubPassCache();
  return readReportedStatus({ store: openObjectStore(gitdir, cache.packs), cache }, fleet);
}
