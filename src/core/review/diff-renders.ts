// The effect of a change, per cluster: what `gitfleet diff` shows on a pull request. Two renders
// (base and head) are compared file by file on every cluster either knows, and placement and
// diagnostics are compared alongside.
import type { Binding } from '../model/binding.js';
import { formatDiagnostic, type Diagnostic } from '../model/diagnostic.js';
import { diffLines } from './diff-lines.js';
import { diffPlacement, isPlacementUnchanged, type PlacementDiff } from './diff-placement.js';
import { redactSecretPair } from './redact-secret-pair.js';
import { redactSopsPair } from './redact-sops-pair.js';
import { formatUnifiedDiff } from './unified-diff.js';

/** The parts of a render (render-fleet.ts RenderResult) a diff reads. */
export interface RenderSide {
  clusters: ReadonlyMap<string, { files: ReadonlyMap<string, string>; held?: ReadonlyMap<string, string> }>;
  bindings: readonly Binding[];
  diagnostics: readonly Diagnostic[];
}

export type FileChangeType = 'added' | 'changed' | 'removed';

/** One rendered file that differs. */
export interface FileDiff {
  /** Path in the cluster branch. */
  path: string;
  change: FileChangeType;
  linesAdded: number;
  linesRemoved: number;
  /** Unified diff with paths `a/<cluster>/<path>` and `b/<cluster>/<path>`. */
  diff: string;
}

/** What changes on one cluster. */
export interface ClusterDiff {
  cluster: string;
  /** Whether the cluster is registered only in head (`added`), only in base (`removed`), or in both. */
  presence: 'added' | 'removed' | 'both';
  added: number;
  changed: number;
  removed: number;
  /** Paths rendered in base that fail to render in head: the hub keeps their last content. */
  held: string[];
  files: FileDiff[];
  /** The changed template sources whose objects change here (diff-sources.ts); absent when none. */
  sources?: SourceChange[];
}

/** One template source whose provenance differs between the sides (diff-sources.ts). */
export interface SourceChange {
  /** `HelmSource/web (sources/web.yaml)`. */
  source: string;
  /** What it rendered from and with (`chart web 0.1.0 … , helm v4.3.2`); absent on a side without it. */
  before?: string;
  after?: string;
}

/** The whole difference between two renders. */
export interface RenderDiff {
  /** False when the two renders are the same in every respect shown here. */
  changed: boolean;
  /** Clusters with any change, by name. */
  clusters: ClusterDiff[];
  placement: PlacementDiff;
  diagnostics: { added: Diagnostic[]; removed: Diagnostic[] };
  /** The template sources whose provenance changes (a chart bump, a new tool version); absent when none. */
  sources?: SourceChange[];
}

/** Returns the per-cluster file diffs, placement changes and diagnostic changes from base to head. */
export function diffRenders(input: { base: RenderSide; head: RenderSide; context?: number }): RenderDiff {
  const { base, head } = input;
  const names = [...new Set([...base.clusters.keys(), ...head.clusters.keys()])].sort();
  const clusters: ClusterDiff[] = [];
  for (const cluster of names) {
    const diff = diffCluster({ cluster, base, head, context: input.context ?? 3 });
    if (diff.presence !== 'both' || diff.files.length > 0 || diff.held.length > 0) clusters.push(diff);
  }
  const placement = diffPlacement({ base: base.bindings, head: head.bindings });
  const diagnostics = diffDiagnostics(base.diagnostics, head.diagnostics);
  const changed =
    clusters.length > 0 ||
    !isPlacementUnchanged(placement) ||
    diagnostics.added.length > 0 ||
    diagnostics.removed.length > 0;
  return { changed, clusters, placement, diagnostics };
}

function diffCluster(input: {
  cluster: string;
  base: RenderSide;
  head: RenderSide;
  context: number;
}): ClusterDiff {
  const { cluster } = input;
  const before = input.base.clusters.get(cluster);
  const after = input.head.clusters.get(cluster);
  const presence = before === undefined ? 'added' : after === undefined ? 'removed' : 'both';
  const baseFiles = before?.files ?? new Map<string, string>();
  const headFiles = after?.files ?? new Map<string, string>();
  const heldNow = after?.held ?? new Map<string, string>();
  const out: ClusterDiff = { cluster, presence, added: 0, changed: 0, removed: 0, held: [], files: [] };
  const paths = [...new Set([...baseFiles.keys(), ...headFiles.keys()])].sort();
  for (const path of paths) {
    const a = baseFiles.get(path);
    const b = headFiles.get(path);
    if (a === b) continue;
    if (b === undefined && heldNow.has(path)) {
      out.held.push(path);
      continue;
    }
    const file = diffFile({ path: `${cluster}/${path}`, a, b, context: input.context });
    out.files.push({ ...file, path });
    out[file.change]++;
  }
  return out;
}

function diffFile(input: {
  path: string;
  a: string | undefined;
  b: string | undefined;
  context: number;
}): FileDiff {
  const { path } = input;
  // Secret values never reach a diff: both sides are compared with their values marked (and
  // ciphertexts, which say nothing, with whether they changed).
  const sops = redactSopsPair(input.a, input.b);
  const { a, b } = sops.a === input.a && sops.b === input.b ? redactSecretPair(input.a, input.b) : sops;
  const edits = diffLines(a ?? '', b ?? '');
  const change: FileChangeType = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
  const diff = formatUnifiedDiff({
    oldPath: a === undefined ? null : path,
    newPath: b === undefined ? null : path,
    edits,
    context: input.context,
  });
  const linesAdded = edits.filter((e) => e.op === 'insert').length;
  const linesRemoved = edits.filter((e) => e.op === 'delete').length;
  return { path, change, linesAdded, linesRemoved, diff };
}

function diffDiagnostics(
  base: readonly Diagnostic[],
  head: readonly Diagnostic[],
): { added: Diagnostic[]; removed: Diagnostic[] } {
  const key = (d: Diagnostic) => `${formatDiagnostic(d)}\u0000${d.code}`;
  const before = new Set(base.map(key));
  const after = new Set(head.map(key));
  const byKey = (x: Diagnostic, y: Diagnostic) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0);
  const unique = (list: readonly Diagnostic[]) => [...new Map(list.map((d) => [key(d), d])).values()];
  return {
    added: unique(head.filter((d) => !before.has(key(d)))).sort(byKey),
    removed: unique(base.filter((d) => !after.has(key(d)))).sort(byKey),
  };
}
