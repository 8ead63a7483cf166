import type { Binding } from '../model/binding.js';
import type { Template } from '../model/fleet.js';

// The APIs the fleet itself brings to each cluster: a CustomResourceDefinition template placed
// on a cluster serves its kind there once the agent applied it (the agent applies CRDs before
// the objects of their kinds, core/apply-plan/apply-order.ts). The APIEnablement filter
// (filter-api-enablement.ts) counts these as enabled, so a custom resource pushed together with
// its CRD is placed on every cluster its CRD goes to, whatever those clusters reported before
// the CRD reached them. Without this, the first render after such a push would place the
// resource on the clusters that had not reported yet (unknown passes) and leave out those that
// had (their list predates the CRD), and a Divided binding keeps that result.

/** Cluster name → the `groupVersion\0kind` keys of the APIs the fleet's CRDs serve there. */
export type FleetApis = ReadonlyMap<string, ReadonlySet<string>>;

export const noFleetApis: FleetApis = new Map();

/** The key of an API in FleetApis. */
export function fleetApiKey(apiVersion: string, kind: string): string {
  return `${apiVersion}\0${kind}`;
}

/** Whether a binding places a CustomResourceDefinition (scheduled before the other bindings). */
export function isCrdResource(ref: { apiVersion: string; kind: string }): boolean {
  return ref.kind === 'CustomResourceDefinition' && ref.apiVersion.startsWith('apiextensions.k8s.io/');
}

/** Returns, per cluster, the APIs the given CRD bindings serve on the clusters they are scheduled to. */
export function fleetApisOf(
  crdBindings: readonly Binding[],
  templates: ReadonlyMap<string, Template>,
): FleetApis {
  const apis = new Map<string, Set<string>>();
  for (const binding of crdBindings) {
    if (binding.schedule.type !== 'Scheduled') continue;
    const served = servedApis(templates.get(binding.key)?.object.spec);
    if (served.length === 0) continue;
    for (const cluster of binding.schedule.clusters) {
      let set = apis.get(cluster.name);
      if (set === undefined) apis.set(cluster.name, (set = new Set()));
      for (const key of served) set.add(key);
    }
  }
  return apis;
}

/** One canonical line of the whole map: equal maps give equal text (the render memo compares it). */
export function fleetApisText(apis: FleetApis): string {
  if (apis.size === 0) return '';
  return [...apis]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([cluster, keys]) => `${cluster}=${[...keys].sort().join(',')}`)
    .join(';');
}

// The CRD's group, kind and served versions; nothing for a spec that does not have them.
function servedApis(spec: unknown): string[] {
  if (typeof spec !== 'object' || spec === null) return [];
  const { group, names, versions } = spec as {
    group?: unknown;
    names?: { kind?: unknown };
    versions?: unknown;
  };
  const kind = names?.kind;
  if (typeof group !== 'string' || typeof kind !== 'string' || !Array.isArray(versions)) return [];
  const keys: string[] = [];
  for (const version of versions as { name?: unknown; served?: unknown }[]) {
    if (typeof version?.name !== 'string' || version.served === false) continue;
    keys.push(fleetApiKey(group === '' ? version.name : `${group}/${version.name}`, kind));
  }
  return keys;
}
