import type { PlacementDiff } from './diff-placement.js';

/** One placement change in words, e.g. `Deployment/shop/web`: `aws-eu-prod 5→6, gcp-eu-prod 5→4`. */
export interface PlacementLine {
  kind: 'moved' | 'replicas' | 'placed' | 'unplaced';
  template: string;
  text: string;
}

/** Returns the placement changes as readable lines: moves, replica changes (one line per template), new and withdrawn placements. */
export function describePlacement(diff: PlacementDiff): PlacementLine[] {
  const lines: PlacementLine[] = [];
  for (const m of diff.moved) {
    lines.push({ kind: 'moved', template: m.template, text: `${list(m.from)} → ${list(m.to)}` });
  }
  const replicas = new Map<string, string[]>();
  for (const r of diff.replicas) {
    const parts = replicas.get(r.template) ?? [];
    parts.push(`${r.cluster} ${r.from}→${r.to}`);
    replicas.set(r.template, parts);
  }
  for (const [template, parts] of replicas)
    lines.push({ kind: 'replicas', template, text: parts.join(', ') });
  for (const p of diff.placed)
    lines.push({ kind: 'placed', template: p.template, text: `on ${list(p.clusters)}` });
  for (const u of diff.unplaced) {
    lines.push({ kind: 'unplaced', template: u.template, text: `was on ${list(u.clusters)}, now on none` });
  }
  return lines;
}

function list(clusters: readonly string[]): string {
  return clusters.length === 0 ? '(none)' : clusters.join(', ');
}
