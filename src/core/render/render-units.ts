import type { Binding, TargetCluster } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Template } from '../model/fleet.js';
import type { RenderMemo, UnitRender } from './render-memo.js';
import type { RenderUnit } from './render-unit.js';
import type { ObjectRenderer, RenderedCopy } from './render-object.js';

/**
 * Returns every unit rendered on its clusters, and the ids of the units rendered again or gone
 * since the memo's render (`dirty`). A unit whose binding, template, referrers and replica
 * ownership are the same objects as last time keeps its copies when `reusable` (every cluster
 * and override policy unchanged); otherwise each copy is rendered, reusing by content key what
 * the same unit rendered last time.
 */
export function renderUnits(opts: {
  units: readonly RenderUnit[];
  clusters: ReadonlyMap<string, Cluster>;
  templates: ReadonlyMap<string, Template>;
  bindings: ReadonlyMap<string, Binding>;
  renderer: ObjectRenderer;
  memo: RenderMemo | undefined;
  reusable: boolean;
}): { rendered: Map<string, UnitRender>; dirty: Set<string> } {
  const rendered = new Map<string, UnitRender>();
  const dirty = new Set<string>();
  for (const unit of opts.units) {
    const { binding } = unit;
    const template = opts.templates.get(binding.key)!;
    const keepsMemberReplicas = opts.renderer.keepsMemberReplicas(template);
    const referrers = referrerClusters(binding, opts.bindings);
    const last = opts.memo?.units.get(unit.id);
    if (
      opts.reusable &&
      last !== undefined &&
      last.unit === unit &&
      last.template === template &&
      last.keepsMemberReplicas === keepsMemberReplicas &&
      sameReferrers(last.referrers, referrers)
    ) {
      rendered.set(unit.id, last);
      continue;
    }
    // What this unit rendered last time, by content key: a copy whose inputs did not change.
    const reuse = last ? new Map([...last.copies.values()].map((c) => [c.key, c.outcome])) : undefined;
    const copies = new Map<string, RenderedCopy>();
    for (const target of unit.targets) {
      const cluster = opts.clusters.get(target.name)!;
      copies.set(target.name, opts.renderer.render(binding, cluster, target.replicas, reuse));
    }
    rendered.set(unit.id, { unit, binding, template, keepsMemberReplicas, referrers, copies });
    dirty.add(unit.id);
  }
  for (const id of opts.memo?.units.keys() ?? []) if (!rendered.has(id)) dirty.add(id);
  return { rendered, dirty };
}

// Where each referrer of a follower is scheduled: a copy names the referrers placed on its cluster.
function referrerClusters(
  binding: Binding,
  bindings: ReadonlyMap<string, Binding>,
): readonly (readonly TargetCluster[])[] {
  if (binding.requiredBy.length === 0) return noReferrers;
  return binding.requiredBy.map((key) => {
    const schedule = bindings.get(key)?.schedule;
    return schedule?.type === 'Scheduled' ? schedule.clusters : noClusters;
  });
}

const noReferrers: readonly (readonly TargetCluster[])[] = [];
const noClusters: readonly TargetCluster[] = [];

function sameReferrers(
  a: readonly (readonly TargetCluster[])[],
  b: readonly (readonly TargetCluster[])[],
): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i]!;
    return x === y || (x.length === y.length && x.every((c, j) => c.name === y[j]!.name));
  });
}

/** The bindings, then per cluster the Namespaces it needs, each with its registered clusters. */
export function renderUnitsOf(
  bindings: readonly Binding[],
  namespaces: ReadonlyMap<string, Binding[]>,
  registered: ReadonlyMap<string, Cluster>,
  intern: (id: string, binding: Binding) => Binding,
  /** Last time's units, when the clusters are the same. */
  last: ReadonlyMap<string, UnitRender> | undefined,
): RenderUnit[] {
  const units: RenderUnit[] = bindings.map((binding) => {
    const kept = last?.get(binding.key)?.unit;
    if (kept?.binding === binding) return kept;
    const scheduled = binding.schedule.type === 'Scheduled' ? binding.schedule.clusters : [];
    const targets = scheduled.every((c) => registered.has(c.name))
      ? scheduled
      : scheduled.filter((c) => registered.has(c.name));
    return { id: binding.key, rank: `0${binding.key}`, binding, targets };
  });
  for (const [cluster, list] of namespaces) {
    for (const made of list) {
      const id = `${made.key}\u0000${cluster}`;
      const binding = intern(id, made);
      const kept = last?.get(id)?.unit;
      units.push(
        kept?.binding === binding
          ? kept
          : { id, rank: `1${made.key}`, binding, targets: [{ name: cluster, replicas: 0 }] },
      );
    }
  }
  return units;
}
