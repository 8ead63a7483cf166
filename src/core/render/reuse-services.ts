// The render memo's `services` entry (incremental-render.ts): the multi-cluster service stage
// (core/mcs) is computed again only when what it reads changed, and then an equal made-up
// template or binding is last time's object, so the units that render it are reused and only
// the importing clusters a change reaches are assembled again.
import type { Binding } from '../model/binding.js';
import type { ExportedSlice } from '../model/exported-slice.js';
import type { Template } from '../model/fleet.js';
import { sameItems } from '../model/same-items.js';
import type {
  MultiClusterServices,
  MultiClusterServicesInput,
} from '../mcs/render-multi-cluster-services.js';

/** What the stage's result was computed from. */
export interface ServicesMemo {
  /** The exported slices, by identity and, when a new map, by value. */
  exportedSlices: ReadonlyMap<string, readonly ExportedSlice[]>;
  slicesJson: string;
  /** The bindings of the kinds it reads (readKinds), as JSON. */
  bindingsJson: string;
  /** The templates of those kinds and the MultiClusterServices, in key order. */
  templates: readonly Template[];
  result: MultiClusterServices;
}

// What the stage reads: the kinds it makes objects from, and those whose names it must not take.
const readKinds = new Set([
  'multicluster.x-k8s.io/ServiceImport',
  'multicluster.x-k8s.io/ServiceExport',
  '/Service',
  'discovery.k8s.io/EndpointSlice',
]);

/**
 * Returns the stage's result: last time's when its inputs are the same (with the clusters and
 * the cluster status, which the caller compares), else computed with equal parts kept.
 */
export function reuseServices(
  input: MultiClusterServicesInput,
  compute: (input: MultiClusterServicesInput) => MultiClusterServices,
  kept: ServicesMemo | undefined,
  sameClustersAndStatus: boolean,
): ServicesMemo {
  // A render without status (slicesReported false) says other things than one with none reported.
  const slicesJson =
    input.slicesReported === false
      ? 'not reported'
      : kept?.exportedSlices === input.exportedSlices && kept.slicesJson !== 'not reported'
        ? kept.slicesJson
        : slicesJsonOf(input.exportedSlices);
  const bindingsJson = JSON.stringify(input.bindings.filter((b) => readKinds.has(kindOf(b.resource))));
  const templates = [...input.templates.values()].filter(
    (t) => readKinds.has(kindOf(t.ref)) || kindOf(t.ref) === 'networking.karmada.io/MultiClusterService',
  );
  const same =
    kept !== undefined &&
    sameClustersAndStatus &&
    kept.slicesJson === slicesJson &&
    kept.bindingsJson === bindingsJson &&
    sameItems(kept.templates, templates);
  const result = same ? kept.result : keepEqual(compute(input), kept?.result);
  return { exportedSlices: input.exportedSlices, slicesJson, bindingsJson, templates, result };
}

function slicesJsonOf(slices: ReadonlyMap<string, readonly ExportedSlice[]>): string {
  return JSON.stringify([...slices].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

function kindOf(ref: { apiVersion: string; kind: string }): string {
  const slash = ref.apiVersion.indexOf('/');
  return `${slash < 0 ? '' : ref.apiVersion.slice(0, slash)}/${ref.kind}`;
}

// Computed again: an equal made-up template or unit binding is last time's object. When nothing
// differs, the result is last time's, so the memo shows the entry as reused.
function keepEqual(now: MultiClusterServices, kept: MultiClusterServices | undefined): MultiClusterServices {
  if (!kept) return now;
  const templates = new Map(kept.generated.map((t) => [t.key, t]));
  const units = new Map(kept.units.map((u) => [u.id, u]));
  const generated = now.generated.map((t) => {
    const old = templates.get(t.key);
    return old && sameJson(old, t) ? old : t;
  });
  const keptUnits = now.units.map((u) => {
    const old = units.get(u.id);
    return old && sameJson<Binding>(old.binding, u.binding) ? old : u;
  });
  const unchanged =
    sameItems(generated, kept.generated) &&
    sameItems(keptUnits, kept.units) &&
    JSON.stringify(now.diagnostics) === JSON.stringify(kept.diagnostics);
  return unchanged ? kept : { generated, units: keptUnits, diagnostics: now.diagnostics };
}

function sameJson<T>(a: T, b: T): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
