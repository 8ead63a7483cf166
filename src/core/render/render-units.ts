import type { Binding, TargetCluster } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Template } from '../model/fleet.js';
import type { ReuseHook } from '../model/reuse-hook.js';
import { placedClusters } from '../follow/placed-clusters.js';
import type { Tenancy } from '../tenancy/create-tenancy.js';
import { formatTenantRefusal } from '../tenancy/tenant-refusal.js';
import { objectPath } from '../format/object-path.js';
import { renderQuotaCopy, type QuotaUnit } from './quota-units.js';
import type { RenderOutcome } from './render-copy.js';
import type { ObjectRenderer, RenderedCopy } from './render-object.js';
import type { RenderUnit, UnitRender, UnitRenderInput } from './render-unit.js';

/** What a unit is made from: its id and binding, and the cluster of a Namespace made for one. */
export interface UnitInput {
  id: string;
  binding: Binding;
  /** Set for a Namespace binding made for this one cluster (ensureNamespaces). */
  cluster?: string;
  /** Set for a multi-cluster service's unit: its place in a cluster's diagnostics. */
  rank?: string;
}

/**
 * Returns the units to render: the bindings, then per cluster the Namespaces it needs, each
 * with the registered clusters it goes to. `reuse` may give a unit kept from an earlier render.
 */
export function unitsOf(opts: {
  bindings: readonly Binding[];
  /** Cluster → the Namespace bindings it needs besides those placed (ensureNamespaces). */
  namespaces: ReadonlyMap<string, readonly Binding[]>;
  clusters: ReadonlyMap<string, Cluster>;
  /** The multi-cluster services' objects (core/mcs), each with its own unit id. */
  services?: readonly { id: string; binding: Binding }[];
  /** The ResourceQuotas of FederatedResourceQuotas (core/quota), each with its own unit id. */
  quotas?: readonly QuotaUnit[];
  reuse?: ReuseHook<UnitInput, RenderUnit>;
}): RenderUnit[] {
  const unitOf = ({ id, binding, cluster, rank }: UnitInput): RenderUnit => {
    if (cluster !== undefined) {
      return { id, rank: `1${binding.key}`, binding, targets: [{ name: cluster, replicas: 0 }] };
    }
    if (rank !== undefined) return { id, rank, binding, targets: registeredTargets(binding, opts.clusters) };
    return { id, rank: `0${binding.key}`, binding, targets: registeredTargets(binding, opts.clusters) };
  };
  const make = (input: UnitInput) => (opts.reuse ? opts.reuse(input, unitOf) : unitOf(input));
  const units = opts.bindings.map((binding) => make({ id: binding.key, binding }));
  for (const [cluster, list] of opts.namespaces) {
    for (const binding of list) units.push(make({ id: `${binding.key}\u0000${cluster}`, binding, cluster }));
  }
  for (const { id, binding } of opts.services ?? []) units.push(make({ id, binding, rank: `2${id}` }));
  for (const { id, binding } of opts.quotas ?? []) units.push(make({ id, binding, rank: `3${id}` }));
  return units;
}

// The registered clusters the binding's objects are on: scheduled, or kept by a graceful
// eviction task with the task's replicas (placedClusters).
function registeredTargets(
  binding: Binding,
  clusters: ReadonlyMap<string, Cluster>,
): readonly TargetCluster[] {
  const placed = placedClusters(binding);
  return placed.every((c) => clusters.has(c.name)) ? placed : placed.filter((c) => clusters.has(c.name));
}

/**
 * Returns every unit rendered on its clusters, by unit id. `reuse` may give a unit's copies
 * kept from an earlier render for the same input; a unit rendered again reuses, by content
 * key, the copies the same unit rendered last time (the renderer's `reuse`).
 */
export function renderUnits(opts: {
  units: readonly RenderUnit[];
  clusters: ReadonlyMap<string, Cluster>;
  templates: ReadonlyMap<string, Template>;
  bindings: ReadonlyMap<string, Binding>;
  renderer: ObjectRenderer;
  /** The tenants' rules, when the fleet has tenants: a refused copy is held (core/tenancy). */
  tenancy?: Tenancy | undefined;
  /** The quotas' ResourceQuota units, by unit id: rendered from their quota, not by the renderer. */
  quotaUnits?: readonly QuotaUnit[];
  /** Binding key → why a FederatedResourceQuota refuses it (core/quota): held on every cluster. */
  quotaRefusals?: ReadonlyMap<string, string>;
  reuse?: ReuseHook<UnitRenderInput, UnitRender>;
  /** Told after each unit (done of total). */
  progress?: (done: number, total: number) => void;
}): Map<string, UnitRender> {
  const render = (input: UnitRenderInput, last?: UnitRender): UnitRender => {
    const { unit } = input;
    // What this unit rendered last time, by content key: a copy whose inputs did not change.
    const earlier: ReadonlyMap<string, RenderOutcome> | undefined = last
      ? new Map([...last.copies.values()].map((c) => [c.key, c.outcome]))
      : undefined;
    const copies = new Map<string, RenderedCopy>();
    const quotaUnit = quotaUnits.get(unit.id);
    for (const target of unit.targets) {
      if (quotaUnit) {
        copies.set(target.name, renderQuotaCopy(quotaUnit, target.name));
        continue;
      }
      if (input.quotaRefused !== undefined) {
        copies.set(target.name, quotaRefusedCopy(input.template, input.quotaRefused));
        continue;
      }
      const cluster = opts.clusters.get(target.name)!;
      const copy = opts.renderer.render(unit.binding, cluster, target.replicas, earlier);
      copies.set(target.name, refuseCopy(opts.tenancy, input.template, unit.binding, cluster, copy));
    }
    return { ...input, copies };
  };
  const quotaUnits = new Map((opts.quotaUnits ?? []).map((u) => [u.id, u]));
  const rendered = new Map<string, UnitRender>();
  for (const unit of opts.units) {
    const template = quotaUnits.get(unit.id)?.template ?? opts.templates.get(unit.binding.key)!;
    const quotaRefused = unit.id === unit.binding.key ? opts.quotaRefusals?.get(unit.id) : undefined;
    const input: UnitRenderInput = {
      unit,
      template,
      keepsMemberReplicas: opts.renderer.keepsMemberReplicas(template),
      referrers: referrerClusters(unit.binding, opts.bindings),
      ...(quotaRefused !== undefined ? { quotaRefused } : {}),
    };
    rendered.set(unit.id, opts.reuse ? opts.reuse(input, render) : render(input));
    opts.progress?.(rendered.size, opts.units.length);
  }
  return rendered;
}

// The copy, or its refusal by the tenants' rules under a key of its own (a refusal is never
// reused as the copy's content: render-object.ts's `reuse` asks by content key).
function refuseCopy(
  tenancy: Tenancy | undefined,
  template: Template,
  binding: Binding,
  cluster: Cluster,
  copy: RenderedCopy,
): RenderedCopy {
  const refused = tenancy?.checkCopy({ template, binding, cluster });
  if (!refused) return copy;
  const error = formatTenantRefusal(refused, template.source.file);
  return {
    key: `${copy.key}\u0000refused`,
    outcome: { ok: false, path: copy.outcome.path, error, tenantRefused: true },
  };
}

// A copy a FederatedResourceQuota refuses: held, under a key of its own.
function quotaRefusedCopy(template: Template, error: string): RenderedCopy {
  return {
    key: `quota\u0000${error}`,
    outcome: { ok: false, path: objectPath(template.ref), error, quotaExceeded: true },
  };
}

// Where each referrer of a follower is placed: a copy names the referrers placed on its cluster.
function referrerClusters(
  binding: Binding,
  bindings: ReadonlyMap<string, Binding>,
): readonly (readonly TargetCluster[])[] {
  if (binding.requiredBy.length === 0) return noReferrers;
  return binding.requiredBy.map((key) => {
    const referrer = bindings.get(key);
    return referrer ? placedClusters(referrer) : noClusters;
  });
}

const noReferrers: readonly (readonly TargetCluster[])[] = [];
const noClusters: readonly TargetCluster[] = [];
