import type { Cluster, ClusterStatus } from '../model/cluster.js';
import type { ExportedEndpoint, ExportedSlice } from '../model/exported-slice.js';

/** The slices of one Service, as the clusters that serve it reported them. */
export interface CollectedSlice {
  slice: ExportedSlice;
  /** The cluster's Ready condition is False or Unknown: its endpoints are served as not ready. */
  notReady: boolean;
}

/**
 * Returns the slices of `namespace/service` reported by `clusters` (in name order, then slice
 * name). Only registered clusters count: a cluster that left the fleet (tombstoned) has no
 * endpoints anywhere, as Karmada deletes a leaving cluster's Works and with them its collected
 * slices. A registered cluster whose Ready condition is not True (the condition Karmada's
 * cluster controller taints it from: schedule/effective-taints.ts) keeps its slices, but its
 * endpoints are not ready and not serving, so no consumer sends traffic to a cluster the hub
 * cannot vouch for.
 */
export function collectSlices(opts: {
  namespace: string;
  service: string;
  clusters: readonly string[];
  registered: ReadonlyMap<string, Cluster>;
  clusterStatus: ReadonlyMap<string, ClusterStatus>;
  exportedSlices: ReadonlyMap<string, readonly ExportedSlice[]>;
}): CollectedSlice[] {
  const collected: CollectedSlice[] = [];
  for (const cluster of [...new Set(opts.clusters)].sort()) {
    if (!opts.registered.has(cluster)) continue;
    const notReady = isNotReady(opts.clusterStatus.get(cluster));
    const slices = (opts.exportedSlices.get(cluster) ?? [])
      .filter((s) => s.namespace === opts.namespace && s.service === opts.service)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const slice of slices) collected.push({ slice: { ...slice, cluster }, notReady });
  }
  return collected;
}

/** Returns the cluster names that reported at least one slice of the Service. */
export function reportingClusters(collected: readonly CollectedSlice[]): string[] {
  return [...new Set(collected.map((c) => c.slice.cluster))];
}

function isNotReady(status: ClusterStatus | undefined): boolean {
  const ready = status?.conditions?.find((c) => c.type === 'Ready');
  return ready !== undefined && ready.status !== 'True';
}

/** Returns the endpoints as a consumer is to see them: not ready and not serving for a NotReady cluster. */
export function servedEndpoints(collected: CollectedSlice): ExportedEndpoint[] {
  if (!collected.notReady) return collected.slice.endpoints;
  return collected.slice.endpoints.map((e) => ({
    addresses: e.addresses,
    conditions: { ...e.conditions, ready: false, serving: false },
  }));
}
