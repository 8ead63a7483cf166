import type { KubeObject } from '../model/kube-object.js';
import type { ExportedPort } from '../model/exported-slice.js';
import { servedEndpoints, type CollectedSlice } from './collect-slices.js';
import { managedByLabel, provisionClusterAnnotation, serviceNameLabel } from './mcs-names.js';

/**
 * Returns the EndpointSlice a consumer gets for a collected slice: the exporter's address type,
 * endpoints (not ready on a NotReady exporter) and ports, under the given name and labels. Only
 * those fields: Karmada's CreateOrUpdateEndpointSlice writes addressType, endpoints, labels and
 * ports (pkg/util/helper/mcs.go).
 */
export function sliceManifest(opts: {
  collected: CollectedSlice;
  namespace: string;
  name: string;
  /** The Service the slice belongs to in the consumer (its kubernetes.io/service-name). */
  service: string;
  managedBy: string;
}): KubeObject {
  const { slice } = opts.collected;
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: opts.name,
      namespace: opts.namespace,
      labels: { [serviceNameLabel]: opts.service, [managedByLabel]: opts.managedBy },
      annotations: { [provisionClusterAnnotation]: slice.cluster },
    },
    addressType: slice.addressType,
    endpoints: servedEndpoints(opts.collected).map((e) => ({
      addresses: [...e.addresses],
      conditions: { ...e.conditions },
    })),
    ports: slice.ports.map((p) => ({ ...p })),
  };
}

/** Returns a port list as one comparable text (the slices' ports are sorted by name, then port). */
export function portsText(ports: readonly ExportedPort[]): string {
  return ports.map((p) => `${p.name ?? ''}:${p.port ?? ''}/${p.protocol ?? 'TCP'}`).join(',');
}
