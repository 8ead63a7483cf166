// Multi-cluster services, the exporting side: the Services a ServiceExport of the cluster branch
// names (same namespace and name, as Karmada's service-export controller pairs them) or the
// hub's exports file lists for a CrossCluster MultiClusterService, and their
// EndpointSlices as they are live, reduced to what a consumer needs (core/status/exported-slices.ts).
// A Service that does not exist (any more) exports nothing, so deleting it, like removing its
// ServiceExport from the branch, removes its files from the status branch.
import { KubeApiError } from '../../adapters/kube/kube-error.js';
import type { ExportedSlice } from '../../core/model/exported-slice.js';
import { parseBranchExports } from '../../core/mcs/provider-exports.js';
import { exportedSliceOf, serviceNameLabel } from '../../core/status/exported-slices.js';
import type { ClusterApi, KindRef } from './cluster-api.js';
import type { DesiredObject } from './read-cluster-branch.js';

/** A Service a ServiceExport names: its namespace and name. */
export interface ExportedService {
  namespace: string;
  name: string;
}

/** The kind of the slices collected. */
export const endpointSliceKind: KindRef = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice' };
const serviceExportGroup = 'multicluster.x-k8s.io';

/**
 * Returns the Services the branch's ServiceExports name and those the hub's exports file lists
 * for CrossCluster MultiClusterServices (core/mcs/provider-exports.ts), once each, sorted by
 * namespace and name. An exports file that does not parse adds nothing (the hub rewrites it).
 */
export function exportedServices(objects: readonly DesiredObject[], exportsFile?: string): ExportedService[] {
  const services = new Map<string, ExportedService>();
  for (const o of objects)
    if (o.ref.kind === 'ServiceExport' && o.ref.apiVersion.startsWith(`${serviceExportGroup}/`))
      services.set(`${o.ref.namespace}/${o.ref.name}`, { namespace: o.ref.namespace, name: o.ref.name });
  const listed = exportsFile === undefined ? undefined : parseBranchExports(exportsFile);
  if (listed && 'services' in listed)
    for (const s of listed.services) services.set(`${s.namespace}/${s.name}`, s);
  return [...services.values()].sort((a, b) => compare(a.namespace, b.namespace) || compare(a.name, b.name));
}

/**
 * Returns the exported slices of the given Services, sorted by namespace, Service and slice
 * name. A cluster that serves no EndpointSlices has none; a cluster that does not answer throws
 * (KubeApiError with code 0), as every read of the pass does.
 */
export async function collectExports(
  client: ClusterApi,
  cluster: string,
  services: readonly ExportedService[],
): Promise<ExportedSlice[]> {
  const slices: ExportedSlice[] = [];
  for (const service of services) {
    const live = await client.get({ apiVersion: 'v1', kind: 'Service', ...service });
    if (!live || live.metadata.deletionTimestamp !== undefined) continue;
    const list = await listSlices(client, service);
    for (const item of list) {
      const slice = exportedSliceOf(cluster, item);
      if (slice && slice.service === service.name) slices.push(slice);
    }
  }
  return slices.sort(
    (a, b) => compare(a.namespace, b.namespace) || compare(a.service, b.service) || compare(a.name, b.name),
  );
}

async function listSlices(client: ClusterApi, service: ExportedService) {
  try {
    const result = await client.list(endpointSliceKind, {
      namespace: service.namespace,
      labelSelector: `${serviceNameLabel}=${service.name}`,
    });
    return result.items;
  } catch (error) {
    if (error instanceof KubeApiError && error.refusal.code === 404) return [];
    throw error;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
