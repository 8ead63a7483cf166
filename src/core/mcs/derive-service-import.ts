import type { Binding } from '../model/binding.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { isMap, type KubeObject } from '../model/kube-object.js';
import { refKey, refLabel } from '../model/object-ref.js';
import { placedClusters } from '../follow/placed-clusters.js';
import { collectSlices, reportingClusters, type CollectedSlice } from './collect-slices.js';
import type { McsInput, McsObject } from './mcs-object.js';
import { derivedServiceName, importControllerValue, importedSliceName } from './mcs-names.js';
import { portsText, sliceManifest } from './slice-manifest.js';

const serviceExportKey = (namespace: string, name: string) =>
  refKey({ apiVersion: 'multicluster.x-k8s.io/v1alpha1', kind: 'ServiceExport', namespace, name });

/**
 * Returns what Karmada's ServiceImport controllers make for one ServiceImport binding, for the
 * clusters it is placed on (pkg/controllers/mcs/service_import_controller.go,
 * endpointslice_controller.go):
 *
 * - the Service `derived-<name>`: type ClusterIP, the ServiceImport's ports (servicePorts:
 *   name, protocol, port, appProtocol); no clusterIP, which the member allocates and keeps
 *   (retainServiceFields), so the agent's server-side apply never owns or fights it;
 * - one EndpointSlice per slice of the Service reported by every exporting cluster, named
 *   `imported-<cluster>-<slice>`, labelled to the derived Service and managed-by Karmada's
 *   endpointslice controller, so the member's own endpointslice controller leaves it alone.
 *
 * Exporting clusters are those the ServiceExport of the same name is placed on that report
 * slices of the Service. Only `spec.type: ClusterSetIP` (the default) is derived, as in Karmada.
 * "Placed on" counts a cluster the ServiceExport (or ServiceImport) is being evicted from while
 * its copy stays (a Gracefully or Never eviction task, follow/placed-clusters.ts), as Karmada keeps
 * that cluster's Work and with it the endpoints it reports: consumers keep the endpoints of a copy
 * that still serves (not ready while its cluster is not Ready) until the task ends.
 */
export function deriveServiceImport(binding: Binding, input: McsInput): McsObject[] | Diagnostic {
  const template = input.templates.get(binding.key)!;
  const { namespace, name } = binding.resource;
  const subject = refLabel(binding.resource);
  const importers = placedClusters(binding).map((c) => c.name);
  if (importers.length === 0) return [];
  const spec = isMap(template.object.spec) ? template.object.spec : {};
  if ((spec.type ?? 'ClusterSetIP') !== 'ClusterSetIP') {
    return {
      severity: 'info',
      code: 'ServiceNotExported',
      subject,
      message: `spec.type is ${String(spec.type)}: only a ClusterSetIP ServiceImport derives a Service (${template.source.file})`,
    };
  }
  const exportBinding = input.bindingsByKey.get(serviceExportKey(namespace, name));
  const exporters = exportBinding ? placedClusters(exportBinding).map((c) => c.name) : [];
  const collected = collectSlices({ namespace, service: name, clusters: exporters, ...input });
  const service = derivedServiceName(name);
  const objects: McsObject[] = [
    {
      object: derivedService(namespace, service, spec.ports),
      clusters: importers,
      referrer: binding,
      source: template.source,
    },
  ];
  for (const c of collected) {
    objects.push({
      object: sliceManifest({
        collected: c,
        namespace,
        name: importedSliceName(c.slice.cluster, c.slice.name),
        service,
        managedBy: importControllerValue,
      }),
      clusters: importers,
      referrer: binding,
      source: template.source,
    });
  }
  input.diagnostics.push(...importDiagnostics(subject, exporters, collected, input.slicesReported));
  return objects;
}

function derivedService(namespace: string, name: string, ports: unknown): KubeObject {
  const list = Array.isArray(ports) ? ports.filter(isMap) : [];
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace },
    spec: {
      type: 'ClusterIP',
      ports: list.map((p) => {
        const port: Record<string, unknown> = {};
        for (const field of ['name', 'protocol', 'port', 'appProtocol'])
          if (p[field] !== undefined) port[field] = p[field];
        return port;
      }),
    },
  };
}

// Karmada's rule for exporters that disagree: there is none to pick a winner. The derived
// Service takes the ServiceImport's ports (servicePorts) and every collected slice keeps its
// own ports (deriveEndpointSlice copies the slice as it is), so gitfleet does the same and says so.
function importDiagnostics(
  subject: string,
  exporters: readonly string[],
  collected: readonly CollectedSlice[],
  slicesReported: boolean,
): Diagnostic[] {
  // Without status (validate, render), whether the exporting clusters report endpoints is not
  // known: say where it is exported, as information, not a warning on every CI run.
  if (collected.length === 0 && exporters.length > 0 && !slicesReported) {
    return [
      {
        severity: 'info',
        code: 'ServiceNotExported',
        subject,
        message: `its ServiceExport is placed on ${exporters.join(', ')}; whether their agents report endpoints of it is known from their status branches (gitfleet status, or gitfleet diff with the hub's branches)`,
      },
    ];
  }
  if (collected.length === 0) {
    const where =
      exporters.length === 0
        ? 'no ServiceExport of the same name is placed on any cluster'
        : `its ServiceExport is placed on ${exporters.join(', ')}, whose agents report no EndpointSlice of it`;
    return [
      {
        severity: 'warning',
        code: 'ServiceNotExported',
        subject,
        message: `the Service is exported nowhere (${where}): the derived Service has no endpoints`,
      },
    ];
  }
  const byCluster = new Map<string, string>();
  for (const c of collected)
    byCluster.set(
      c.slice.cluster,
      [byCluster.get(c.slice.cluster), portsText(c.slice.ports)].filter((t) => t).join(';'),
    );
  const distinct = new Set(byCluster.values());
  if (distinct.size < 2) return [];
  const listed = [...byCluster].map(([cluster, ports]) => `${cluster} (${ports || 'no ports'})`).join(', ');
  return [
    {
      severity: 'warning',
      code: 'ServicePortConflict',
      subject,
      message: `the exporting clusters disagree on the Service's ports: ${listed}; as in Karmada, the derived Service takes the ServiceImport's ports and each imported slice keeps its cluster's (${reportingClusters(collected).length} clusters)`,
    },
  ];
}
