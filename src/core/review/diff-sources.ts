// What a change does to the template sources (docs/sources.md#provenance): a chart version bump,
// a new digest, another tool version. `gitfleet diff` says it once for the whole change and, per
// cluster, for the sources whose rendered objects change there (each object names its rendered
// file in its `gitfleet.io/source` annotation), so a reviewer sees the chart bump that caused
// the manifests' diff.
import type { SourceProvenance } from '../model/source-provenance.js';
import { changedSources } from '../sources/changed-sources.js';
import { describeInput, sourceLabel } from '../sources/describe-provenance.js';
import type { RenderDiff, RenderSide, SourceChange } from './diff-renders.js';

/** The sources that change, and per cluster those whose objects change there. */
export interface SourcesDiff {
  changes: SourceChange[];
  /** Cluster → the changed sources whose objects change on it, in the order of `changes`. */
  byCluster: Map<string, SourceChange[]>;
}

/** Returns the diff with the sources whose provenance differs from base to head, overall and on each cluster. */
export function withSourceChanges(diff: RenderDiff, sources: SourcesDiff): RenderDiff {
  if (sources.changes.length === 0) return diff;
  const clusters = diff.clusters.map((c) => {
    const here = sources.byCluster.get(c.cluster);
    return here ? { ...c, sources: here } : c;
  });
  return { ...diff, clusters, sources: sources.changes };
}

/** Returns the sources whose provenance differs from base to head, overall and per cluster. */
export function diffSources(input: {
  base: ReadonlyMap<string, SourceProvenance> | undefined;
  head: ReadonlyMap<string, SourceProvenance> | undefined;
  diff: RenderDiff;
  baseRender: RenderSide;
  headRender: RenderSide;
}): SourcesDiff {
  const before = described(input.base);
  const after = described(input.head);
  const changes: SourceChange[] = [];
  for (const source of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const a = before.get(source);
    const b = after.get(source);
    if (a !== b)
      changes.push({
        source,
        ...(a !== undefined ? { before: a } : {}),
        ...(b !== undefined ? { after: b } : {}),
      });
  }
  const byCluster = new Map<string, SourceChange[]>();
  if (changes.length === 0) return { changes, byCluster };
  const both = new Map([...(input.base ?? []), ...(input.head ?? [])]);
  for (const cluster of input.diff.clusters) {
    const texts = cluster.files.map((f) =>
      (f.change === 'removed' ? input.baseRender : input.headRender).clusters
        .get(cluster.cluster)
        ?.files.get(f.path),
    );
    const labels = new Set(changedSources(texts, both).map(sourceLabel));
    const here = changes.filter((c) => labels.has(c.source));
    if (here.length > 0) byCluster.set(cluster.cluster, here);
  }
  return { changes, byCluster };
}

/** Returns `HelmSource/web (sources/web.yaml): chart web 0.1.0 … → chart web 0.2.0 …, helm v4.3.2`. */
export function describeSourceChange(change: SourceChange): string {
  return `${change.source}: ${change.before ?? '(none)'} → ${change.after ?? '(removed)'}`;
}

// Source label → what it rendered from and with, one entry per source.
function described(provenance: ReadonlyMap<string, SourceProvenance> | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of provenance?.values() ?? []) out.set(sourceLabel(p), `${describeInput(p)}, ${p.tool}`);
  return out;
}
