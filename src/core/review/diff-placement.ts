// Where templates go, compared between two renders: the part of a change a reviewer cannot read
// off the manifests alone (a template leaving a cluster, replicas moving between clusters).
import type { Binding } from '../model/binding.js';
import { refLabel } from '../model/object-ref.js';

/** How placement differs between two renders; every list in template-key order, then by cluster. */
export interface PlacementDiff {
  /** Templates placed on both sides whose set of clusters changed. */
  moved: { template: string; from: string[]; to: string[] }[];
  /** Replica counts that changed on a cluster the template is placed on before and after. */
  replicas: { template: string; cluster: string; from: number; to: number }[];
  /** Templates placed now that were not placed before (new, or nothing fitted). */
  placed: { template: string; clusters: string[] }[];
  /** Templates placed before that are placed nowhere now (removed, or nothing fits). */
  unplaced: { template: string; clusters: string[] }[];
}

/** Returns whether a placement diff holds no change. */
export function isPlacementUnchanged(diff: PlacementDiff): boolean {
  return (
    diff.moved.length === 0 &&
    diff.replicas.length === 0 &&
    diff.placed.length === 0 &&
    diff.unplaced.length === 0
  );
}

/** Returns the placement changes between the bindings of two renders. */
export function diffPlacement(input: { base: readonly Binding[]; head: readonly Binding[] }): PlacementDiff {
  const base = placements(input.base);
  const head = placements(input.head);
  const diff: PlacementDiff = { moved: [], replicas: [], placed: [], unplaced: [] };
  const keys = [...new Set([...base.keys(), ...head.keys()])].sort();
  for (const key of keys) {
    const before = base.get(key);
    const after = head.get(key);
    const template = (after ?? before)!.template;
    const from = before?.clusters ?? new Map<string, number>();
    const to = after?.clusters ?? new Map<string, number>();
    if (from.size === 0 && to.size === 0) continue;
    if (from.size === 0) diff.placed.push({ template, clusters: [...to.keys()] });
    else if (to.size === 0) diff.unplaced.push({ template, clusters: [...from.keys()] });
    else {
      if (!sameKeys(from, to)) diff.moved.push({ template, from: [...from.keys()], to: [...to.keys()] });
      for (const [cluster, replicas] of to) {
        const previous = from.get(cluster);
        if (previous !== undefined && previous !== replicas) {
          diff.replicas.push({ template, cluster, from: previous, to: replicas });
        }
      }
    }
  }
  return diff;
}

interface Placement {
  template: string;
  /** Cluster → replicas, sorted by cluster. */
  clusters: Map<string, number>;
}

function placements(bindings: readonly Binding[]): Map<string, Placement> {
  const byKey = new Map<string, Placement>();
  for (const binding of bindings) {
    const targets = binding.schedule.type === 'Scheduled' ? binding.schedule.clusters : [];
    const clusters = new Map(
      [...targets]
        .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
        .map((t) => [t.name, t.replicas]),
    );
    byKey.set(binding.key, { template: refLabel(binding.resource), clusters });
  }
  return byKey;
}

function sameKeys(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  return a.size === b.size && [...a.keys()].every((k) => b.has(k));
}
