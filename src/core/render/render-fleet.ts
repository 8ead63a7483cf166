import type { Binding } from '../model/binding.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Template } from '../model/fleet.js';
import { refLabel } from '../model/object-ref.js';
import type { Snapshot } from '../model/snapshot.js';
import { detectClaims } from '../detect/detect-claims.js';
import { compileSkipRules } from '../detect/skip-rules.js';
import { bindClaims } from './bind-claims.js';
import { ensureNamespaces } from './ensure-namespaces.js';
import { placeFollowers } from './place-followers.js';
import { renderCluster } from './render-cluster.js';
import { createObjectRenderer, type RenderMemo } from './render-object.js';

/** The rendered manifests of one member cluster. */
export interface ClusterOutput {
  /** Path in the cluster branch (DESIGN.md §3 layout) → canonical YAML. */
  files: Map<string, string>;
  /**
   * Paths of objects that failed to render on this cluster (e.g. a failing override). Their
   * previous content must be kept: a failed render is never a deletion.
   */
  held: Map<string, string>;
}

export interface RenderOptions {
  /**
   * The memo of a previous render (its `memo`): objects whose inputs did not change are not
   * rendered again, so a render costs what changed. The output is the same with or without it.
   */
  memo?: RenderMemo;
}

export interface RenderResult {
  /** Rendered objects by content key, to pass to the next render. */
  memo: RenderMemo;
  clusters: Map<string, ClusterOutput>;
  /** Claimed templates and their followers, sorted by key. */
  bindings: Binding[];
  diagnostics: Diagnostic[];
  stats: { templates: number; claimed: number; followers: number; skipped: number; unmatched: number };
}

/**
 * Returns, for every registered cluster, exactly the manifests it must run: detect, schedule,
 * follow, override and render (DESIGN.md §2). Pure: the same snapshot gives byte-identical output.
 */
export function renderFleet(snapshot: Snapshot, options: RenderOptions = {}): RenderResult {
  const { fleet } = snapshot;
  const skipRules = compileSkipRules(fleet.config);
  const templates = new Map<string, Template>(fleet.templates.map((t) => [t.key, t]));
  const detected = detectClaims({
    templates: fleet.templates,
    policies: fleet.propagationPolicies,
    previous: snapshot.previous,
    skipRules,
  });
  const bound = bindClaims({
    claims: detected.claims,
    clusters: fleet.clusters,
    clusterStatus: snapshot.clusterStatus,
    previous: snapshot.previous,
  });
  const followed = placeFollowers({
    bindings: bound.bindings,
    templates,
    clusters: fleet.clusters,
    skipRules,
  });
  const bindings = [...bound.bindings, ...followed.followers].sort((a, b) => (a.key < b.key ? -1 : 1));
  const namespaces = ensureNamespaces({ bindings, templates, clusters: fleet.clusters });
  for (const generated of namespaces.generated) templates.set(generated.key, generated);
  const renderer = createObjectRenderer({
    fleet,
    templates,
    bindings,
    ...(options.memo ? { memo: options.memo } : {}),
  });
  const clusters = new Map<string, ClusterOutput>();
  const diagnostics = [
    ...bound.diagnostics,
    ...followed.diagnostics,
    ...unmatchedDiagnostics(detected.unmatched, followed.followers),
  ];
  for (const cluster of fleet.clusters) {
    const extra = namespaces.perCluster.get(cluster.name) ?? [];
    const rendered = renderCluster({ cluster, bindings: [...bindings, ...extra], renderer });
    clusters.set(cluster.name, rendered.output);
    diagnostics.push(...rendered.diagnostics);
  }
  const following = new Set(followed.followers.map((f) => f.key));
  return {
    clusters,
    bindings,
    diagnostics,
    memo: renderer.used,
    stats: {
      templates: fleet.templates.length,
      claimed: bound.bindings.length,
      followers: followed.followers.length,
      skipped: detected.skipped.length,
      unmatched: detected.unmatched.filter((t) => !following.has(t.key)).length,
    },
  };
}

function unmatchedDiagnostics(unmatched: readonly Template[], followers: readonly Binding[]): Diagnostic[] {
  const following = new Set(followers.map((f) => f.key));
  return unmatched
    .filter((t) => t.ref.kind !== 'Namespace' && !following.has(t.key))
    .map((t) => ({
      severity: 'info' as const,
      code: 'NoPolicyMatch' as const,
      subject: refLabel(t.ref),
      message: `no propagation policy matches it (${t.source.file}); it is not rendered unless it follows another object`,
    }));
}
