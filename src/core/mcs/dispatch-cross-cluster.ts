import type { Binding } from '../model/binding.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Template } from '../model/fleet.js';
import { isMap } from '../model/kube-object.js';
import { refKey, refLabel } from '../model/object-ref.js';
import { placedClusters } from '../follow/placed-clusters.js';
import { collectSlices } from './collect-slices.js';
import type { McsInput, McsObject } from './mcs-object.js';
import { dispatchControllerValue, dispatchedSliceName } from './mcs-names.js';
import { sliceManifest } from './slice-manifest.js';

/**
 * Returns what Karmada's multiclusterservice controllers make for one MultiClusterService
 * (networking.karmada.io/v1alpha1) of type CrossCluster:
 *
 * - mcs_controller.go (buildResourceBinding): the Service of the same name goes to the provider
 *   and consumer clusters. gitfleet places the repo's Service on those of them its own binding
 *   does not already place it on;
 * - endpointslice_dispatch_controller.go (dispatchEndpointSlice, ensureEndpointSliceWork): each
 *   provider's slices go to every consumer but the provider itself, named `<provider>-<slice>`,
 *   labelled to the Service and managed-by the dispatch controller, with the provision-cluster
 *   annotation.
 *
 * providerClusters and consumerClusters list names; empty means every registered cluster
 * (helper.GetProviderClusters, GetConsumerClusters). Karmada skips a NotReady consumer but
 * leaves what it dispatched there; gitfleet keeps dispatching to it, which is the same on the
 * member. A NotReady provider's endpoints are served as not ready, as for a ServiceImport.
 */
export function dispatchCrossCluster(template: Template, input: McsInput): McsObject[] {
  const { namespace, name } = template.ref;
  const spec = isMap(template.object.spec) ? template.object.spec : {};
  if (!Array.isArray(spec.types) || !spec.types.includes('CrossCluster')) return [];
  const everyCluster = [...input.registered.keys()].sort();
  const providers = clusterNames(spec.providerClusters) ?? everyCluster;
  const consumers = (clusterNames(spec.consumerClusters) ?? everyCluster).filter((c) =>
    input.registered.has(c),
  );
  const objects: McsObject[] = [];
  const serviceKey = refKey({ apiVersion: 'v1', kind: 'Service', namespace, name });
  const service = input.templates.get(serviceKey);
  if (service) {
    const placed = placedOn(input.bindingsByKey.get(serviceKey));
    const more = [...new Set([...providers, ...consumers])].filter(
      (c) => input.registered.has(c) && !placed.has(c),
    );
    if (more.length > 0)
      objects.push({ object: service.object, clusters: more, source: template.source, extends: serviceKey });
  } else {
    input.diagnostics.push(missingService(template, serviceKey));
  }
  for (const c of collectSlices({ namespace, service: name, clusters: providers, ...input })) {
    const to = consumers.filter((consumer) => consumer !== c.slice.cluster);
    if (to.length === 0) continue;
    objects.push({
      object: sliceManifest({
        collected: c,
        namespace,
        name: dispatchedSliceName(c.slice.cluster, c.slice.name),
        service: name,
        managedBy: dispatchControllerValue,
      }),
      clusters: to,
      source: template.source,
    });
  }
  return objects;
}

function clusterNames(selectors: unknown): string[] | undefined {
  if (!Array.isArray(selectors)) return undefined;
  const names = selectors
    .filter(isMap)
    .map((s) => s.name)
    .filter((n): n is string => typeof n === 'string');
  return names.length > 0 ? names : undefined;
}

// The clusters the binding's objects are on, a copy kept by a graceful eviction task included.
function placedOn(binding: Binding | undefined): Set<string> {
  return new Set(binding ? placedClusters(binding).map((c) => c.name) : []);
}

function missingService(template: Template, serviceKey: string): Diagnostic {
  return {
    severity: 'warning',
    code: 'ServiceMissing',
    subject: refLabel(template.ref),
    message: `its Service (${serviceKey}) is not in the fleet repo: only the providers' EndpointSlices are dispatched (${template.source.file})`,
  };
}
