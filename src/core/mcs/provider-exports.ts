// A CrossCluster MultiClusterService names no ServiceExport, yet its providers' agents must
// report the Service's EndpointSlices. The hub tells them which, in a file of its own in each
// provider's cluster branch (`.gitfleet/exports.yaml`: never applied, never pruned, not counted
// by the mass-deletion guard); the agent exports the Services it lists as well as those its
// branch's ServiceExports name. When a cluster stops providing anything, the file stays with an
// empty list, so its agent stops exporting.
import { emitYaml } from '../format/emit-yaml.js';
import type { Fleet } from '../model/fleet.js';
import { isMap } from '../model/kube-object.js';
import { parseYamlStream } from '../load/parse-yaml-stream.js';

/** The file of a cluster branch that lists the Services the hub asks its agent to export. */
export const branchExportsPath = '.gitfleet/exports.yaml';

/** A Service to export: its namespace and name. */
export interface ProvidedService {
  namespace: string;
  name: string;
}

/**
 * Returns, per registered cluster, the Services it provides for the fleet's CrossCluster
 * MultiClusterServices (providerClusters; an empty or absent list is every registered cluster,
 * as Karmada's helper.GetProviderClusters reads it), sorted by namespace and name.
 */
export function providedServices(fleet: Fleet): Map<string, ProvidedService[]> {
  const registered = fleet.clusters.map((c) => c.name);
  const byCluster = new Map<string, ProvidedService[]>();
  for (const template of fleet.templates) {
    const { ref } = template;
    if (ref.kind !== 'MultiClusterService' || !ref.apiVersion.startsWith('networking.karmada.io/')) continue;
    const spec = isMap(template.object.spec) ? template.object.spec : {};
    if (!Array.isArray(spec['types']) || !spec['types'].includes('CrossCluster')) continue;
    const named = Array.isArray(spec['providerClusters'])
      ? spec['providerClusters'].flatMap((p) =>
          isMap(p) && typeof p['name'] === 'string' ? [p['name']] : [],
        )
      : [];
    const providers = named.length > 0 ? named.filter((c) => registered.includes(c)) : registered;
    for (const cluster of providers) {
      const list = byCluster.get(cluster) ?? [];
      list.push({ namespace: ref.namespace, name: ref.name });
      byCluster.set(cluster, list);
    }
  }
  for (const list of byCluster.values()) list.sort(compareServices);
  return byCluster;
}

/**
 * Returns the text of a branch's exports file, or undefined when there is nothing to write
 * (no Service to export and no file before).
 */
export function branchExportsText(
  services: readonly ProvidedService[],
  hadFile: boolean,
): string | undefined {
  if (services.length === 0 && !hadFile) return undefined;
  return emitYaml({
    apiVersion: 'gitfleet.io/v1alpha1',
    kind: 'ExportList',
    services: services.map((s) => ({ namespace: s.namespace, name: s.name })),
  });
}

/** Returns the Services a branch's exports file lists, or the reason it cannot be read. */
export function parseBranchExports(text: string): { services: ProvidedService[] } | { error: string } {
  const parsed = parseYamlStream(
    { path: branchExportsPath, content: text },
    { maxFileBytes: 8 * 1024 * 1024, maxExpandedNodes: 200_000, maxExpandedBytes: 16 * 1024 * 1024 },
  );
  if (!parsed.ok) return { error: `${branchExportsPath}: ${parsed.errors.map((e) => e.message).join('; ')}` };
  const doc = parsed.documents[0]?.value;
  if (!isMap(doc) || doc['kind'] !== 'ExportList' || !Array.isArray(doc['services']))
    return { error: `${branchExportsPath}: not an ExportList with a services list` };
  const services: ProvidedService[] = [];
  for (const item of doc['services']) {
    if (!isMap(item) || typeof item['namespace'] !== 'string' || typeof item['name'] !== 'string')
      return { error: `${branchExportsPath}: a service without a string namespace and name` };
    services.push({ namespace: item['namespace'], name: item['name'] });
  }
  return { services: services.sort(compareServices) };
}

function compareServices(a: ProvidedService, b: ProvidedService): number {
  return a.namespace < b.namespace
    ? -1
    : a.namespace > b.namespace
      ? 1
      : a.name < b.name
        ? -1
        : a.name > b.name
          ? 1
          : 0;
}
