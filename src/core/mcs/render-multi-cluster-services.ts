import type { Binding } from '../model/binding.js';
import type { Cluster, ClusterStatus } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { ExportedSlice } from '../model/exported-slice.js';
import type { Template } from '../model/fleet.js';
import { refKey, refLabel, type ObjectRef } from '../model/object-ref.js';
import { followerBinding } from '../follow/follower-binding.js';
import { deriveServiceImport } from './derive-service-import.js';
import { dispatchCrossCluster } from './dispatch-cross-cluster.js';
import type { McsInput, McsObject } from './mcs-object.js';

export interface MultiClusterServicesInput {
  /** Every binding after the follow stage. */
  bindings: readonly Binding[];
  templates: ReadonlyMap<string, Template>;
  clusters: readonly Cluster[];
  clusterStatus: ReadonlyMap<string, ClusterStatus>;
  exportedSlices: ReadonlyMap<string, readonly ExportedSlice[]>;
  /** False when no status was read (McsInput.slicesReported); default true. */
  slicesReported?: boolean;
}

/** What the importing and consuming clusters get, to render like any binding. */
export interface MultiClusterServices {
  /** The made-up templates (derived Services, imported and dispatched EndpointSlices), by key. */
  generated: Template[];
  /** Units to render: a made-up template's binding (id: its key), or a repo Service's extra placement. */
  units: { id: string; binding: Binding }[];
  diagnostics: Diagnostic[];
}

const serviceImportKind = 'multicluster.x-k8s.io/ServiceImport';
const multiClusterServiceKind = 'networking.karmada.io/MultiClusterService';

/**
 * Returns, for every placed ServiceImport and every CrossCluster MultiClusterService, the
 * objects Karmada's controllers would make, and the clusters they go to (docs/multi-cluster-services.md).
 * Pure: the same bindings, templates, cluster status and exported slices give the same result.
 * A made-up object whose key is a template of the fleet repo is not made (the repo's object is
 * placed as it is) and a diagnostic says so.
 */
export function renderMultiClusterServices(input: MultiClusterServicesInput): MultiClusterServices {
  const diagnostics: Diagnostic[] = [];
  const context: McsInput = {
    templates: input.templates,
    bindingsByKey: new Map(input.bindings.map((b) => [b.key, b])),
    registered: new Map(input.clusters.map((c) => [c.name, c])),
    clusterStatus: input.clusterStatus,
    exportedSlices: input.exportedSlices,
    slicesReported: input.slicesReported !== false,
    diagnostics,
  };
  const made: McsObject[] = [];
  for (const binding of input.bindings) {
    if (kindKey(binding.resource) !== serviceImportKind) continue;
    const derived = deriveServiceImport(binding, context);
    if (Array.isArray(derived)) made.push(...derived);
    else diagnostics.push(derived);
  }
  const services = [...input.templates.values()].filter((t) => kindKey(t.ref) === multiClusterServiceKind);
  for (const template of services.sort((a, b) => (a.key < b.key ? -1 : 1))) {
    made.push(...dispatchCrossCluster(template, context));
  }
  return { ...unitsOfObjects(made, input.templates, diagnostics), diagnostics };
}

function unitsOfObjects(
  made: readonly McsObject[],
  templates: ReadonlyMap<string, Template>,
  diagnostics: Diagnostic[],
): Omit<MultiClusterServices, 'diagnostics'> {
  const generated = new Map<string, Template>();
  const units = new Map<string, { id: string; binding: Binding }>();
  for (const m of made) {
    const ref: ObjectRef = {
      apiVersion: m.object.apiVersion,
      kind: m.object.kind,
      namespace: m.object.metadata.namespace ?? '',
      name: m.object.metadata.name,
    };
    const key = refKey(ref);
    const id = m.extends ? `${key}\u0000mcs` : key;
    if ((!m.extends && templates.has(key)) || units.has(id)) {
      diagnostics.push({
        severity: 'warning',
        code: 'ImportConflict',
        subject: refLabel(ref),
        message: `${templates.has(key) ? 'the fleet repo has an object' : 'two multi-cluster services make an object'} of this name (${m.source.file}): it is not made again`,
      });
      continue;
    }
    if (!m.extends) generated.set(key, { ref, key, object: m.object, source: m.source });
    const binding = followerBinding({
      ref,
      origin: 'dependency',
      clusters: m.clusters,
      ...(m.referrer
        ? {
            requiredBy: [m.referrer.key],
            overwrite: m.referrer.conflictResolution === 'Overwrite',
            preserve: m.referrer.preserveResourcesOnDeletion,
          }
        : {}),
    });
    units.set(id, { id, binding });
  }
  return { generated: [...generated.values()], units: [...units.values()] };
}

function kindKey(ref: ObjectRef): string {
  const group = ref.apiVersion.includes('/') ? ref.apiVersion.slice(0, ref.apiVersion.indexOf('/')) : '';
  return `${group}/${ref.kind}`;
}
