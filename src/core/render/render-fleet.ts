import { findUnregisteredClusters } from '../schedule/find-unregistered-clusters.js';
import type { Binding, PreviousBinding } from '../model/binding.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Template } from '../model/fleet.js';
import { refLabel, type ObjectRef } from '../model/object-ref.js';
import { findDependencies } from '../follow/find-dependencies.js';
import type { Snapshot } from '../model/snapshot.js';
import { compileSkipRules } from '../detect/skip-rules.js';
import { assembleClusters } from './assemble-clusters.js';
import type { ClusterOutput } from './cluster-output.js';
import { detectTemplates } from '../detect/detect-templates.js';
import { ensureNamespacesReusing } from '../follow/ensure-namespaces.js';
import { placeFollowers } from '../follow/place-followers.js';
import { createObjectRenderer } from './render-object.js';
import { sameItems } from '../model/same-items.js';
import { renderContextOf, type RenderContext, type RenderMemo } from './render-memo.js';
import { renderUnits, renderUnitsOf } from './render-units.js';
import { scheduleClaims } from '../schedule/schedule-claims.js';

export type { RenderMemo } from './render-memo.js';
export type { ClusterOutput } from './cluster-output.js';

export interface RenderOptions {
  /**
   * The memo of a previous render (its `memo`): what did not change is not computed again
   * (render-memo.ts), so a render costs what changed. The output is the same with or without it.
   */
  memo?: RenderMemo;
  /**
   * Also work out what the next render will be asked (each binding's detection and schedule
   * with its own claim and placement as the previous ones), so that it finds them in the memo.
   * For callers that render again and again (the hub, render --watch): it costs the first
   * render about a tenth more and saves the next one most of its scheduling.
   */
  ahead?: boolean;
}

export interface RenderResult {
  /** What this render computed, to pass to the next render. */
  memo: RenderMemo;
  clusters: Map<string, ClusterOutput>;
  /** Claimed templates and their followers, sorted by key. */
  bindings: Binding[];
  /**
   * Each claimed binding's placement as the next render reads it back (binding key →
   * previousBindingOf(binding)). A caller that records bindings and passes these same objects
   * back as the next snapshot's `previous` lets that render see at once that nothing moved.
   */
  placements: ReadonlyMap<string, PreviousBinding>;
  diagnostics: Diagnostic[];
  stats: { templates: number; claimed: number; followers: number; skipped: number; unmatched: number };
}

/**
 * Returns, for every registered cluster, exactly the manifests it must run: detect, schedule,
 * follow, override and render (docs/architecture.md#the-pipeline). Pure: the same snapshot gives
 * byte-identical output.
 */
export function renderFleet(snapshot: Snapshot, options: RenderOptions = {}): RenderResult {
  const { fleet } = snapshot;
  const { memo } = options;
  const context = renderContextOf(fleet, snapshot.clusterStatus);
  const same = compareContexts(memo?.context, context);
  const skipRules = compileSkipRules(fleet.config);
  const templates = new Map<string, Template>(fleet.templates.map((t) => [t.key, t]));
  const ahead = options.ahead ?? false;
  const detected = detectTemplates({
    snapshot,
    skipRules,
    memo: same.policies ? memo?.detections : undefined,
    ahead,
  });
  const bound = scheduleClaims({
    snapshot,
    claims: detected.result.claims,
    memo: same.placement ? memo?.schedules : undefined,
    ahead,
  });
  const dependencies = new Map<string, { template: Template; dependencies: readonly ObjectRef[] }>();
  const followed = placeFollowers({
    bindings: bound.bindings,
    templates,
    clusters: fleet.clusters,
    skipRules,
    dependenciesOf: (template) => dependenciesOf(template, memo, dependencies),
  });
  const followers = new Map<string, { binding: Binding; json: string }>();
  const intern = (id: string, binding: Binding) => internFollower(id, binding, memo, followers);
  const bindings = [...bound.bindings, ...followed.followers.map((f) => intern(f.key, f))].sort((a, b) =>
    a.key < b.key ? -1 : 1,
  );
  const namespaces = ensureNamespacesReusing(
    { bindings, templates, clusters: fleet.clusters },
    memo?.namespaces,
  );
  const generated = new Map<string, Template>();
  for (const made of namespaces.result.generated) {
    const template = memo?.generated.get(made.key) ?? made;
    generated.set(made.key, template);
    templates.set(made.key, template);
  }
  const registered = new Map(fleet.clusters.map((c) => [c.name, c]));
  const units = renderUnitsOf(
    bindings,
    namespaces.result.perCluster,
    registered,
    intern,
    same.clusters ? memo?.units : undefined,
  );
  const bindingsByKey = new Map(bindings.map((b) => [b.key, b]));
  const renderer = createObjectRenderer({ fleet, templates, bindings: bindingsByKey });
  const { rendered, dirty } = renderUnits({
    units,
    clusters: registered,
    templates,
    bindings: bindingsByKey,
    renderer,
    memo,
    reusable: same.clusters && same.overrides,
  });
  const assembled = assembleClusters({
    clusters: fleet.clusters,
    units,
    rendered,
    dirty,
    memo,
    sameClusters: same.clusters,
  });
  const clusters = new Map([...assembled].map(([name, c]) => [name, c.output]));
  const diagnostics = [
    ...findUnregisteredClusters(fleet),
    ...bound.diagnostics,
    ...followed.diagnostics,
    ...unmatchedDiagnostics(detected.result.unmatched, followed.followers),
    ...[...assembled.values()].flatMap((c) => c.diagnostics.map((d) => d.diagnostic)),
  ];
  const following = new Set(followed.followers.map((f) => f.key));
  return {
    clusters,
    bindings,
    placements: bound.placements,
    diagnostics,
    memo: {
      context,
      detections: detected.detections,
      dependencies,
      namespaces: namespaces.memo,
      schedules: bound.schedules,
      followers,
      generated,
      units: rendered,
      clusters: assembled,
    },
    stats: {
      templates: fleet.templates.length,
      claimed: bound.bindings.length,
      followers: followed.followers.length,
      skipped: detected.result.skipped.length,
      unmatched: detected.result.unmatched.filter((t) => !following.has(t.key)).length,
    },
  };
}

/** Which fleet-wide inputs are the same as the memo's: what each stage may reuse. */
function compareContexts(last: RenderContext | undefined, now: RenderContext) {
  if (!last) return { policies: false, placement: false, clusters: false, overrides: false };
  const clusters = sameItems(last.clusters, now.clusters);
  return {
    policies: sameItems(last.propagationPolicies, now.propagationPolicies) && last.config === now.config,
    placement: clusters && last.status === now.status,
    clusters,
    overrides: sameItems(last.overridePolicies, now.overridePolicies),
  };
}

function dependenciesOf(
  template: Template,
  memo: RenderMemo | undefined,
  next: Map<string, { template: Template; dependencies: readonly ObjectRef[] }>,
): readonly ObjectRef[] {
  const last = memo?.dependencies.get(template.key);
  const entry =
    last?.template === template ? last : { template, dependencies: findDependencies(template.object) };
  next.set(template.key, entry);
  return entry.dependencies;
}

/** Returns last time's binding object for an equal binding (so later stages can reuse), else this one. */
function internFollower(
  id: string,
  binding: Binding,
  memo: RenderMemo | undefined,
  next: Map<string, { binding: Binding; json: string }>,
): Binding {
  const json = JSON.stringify(binding);
  const last = memo?.followers.get(id);
  const kept = last && last.json === json ? last : { binding, json };
  next.set(id, kept);
  return kept.binding;
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
