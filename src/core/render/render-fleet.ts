import type { Binding, PreviousBinding } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Template } from '../model/fleet.js';
import { refLabel, type ObjectRef } from '../model/object-ref.js';
import { findDependencies } from '../follow/find-dependencies.js';
import type { Snapshot } from '../model/snapshot.js';
import {
  addDetection,
  detectTemplate,
  indexPolicies,
  type Claim,
  type DetectResult,
} from '../detect/detect-claims.js';
import { compileSkipRules, type SkipRules } from '../detect/skip-rules.js';
import { previousBindingOf } from '../publish/previous-binding-of.js';
import { assembleClusters } from './assemble-clusters.js';
import { bindClaim } from './bind-claims.js';
import { ensureNamespaces, type EnsuredNamespaces } from './ensure-namespaces.js';
import { placeFollowers } from './place-followers.js';
import { createObjectRenderer } from './render-object.js';
import {
  renderContextOf,
  sameItems,
  samePrevious,
  type DetectionMemo,
  type NamespacesMemo,
  type RenderContext,
  type RenderMemo,
  type ScheduleMemo,
  type ScheduledWith,
  type UnitRender,
} from './render-memo.js';
import { renderUnits, type RenderUnit } from './render-units.js';

export type { RenderMemo } from './render-memo.js';

/** The rendered manifests of one member cluster. */
export interface ClusterOutput {
  /** Path in the cluster branch (DESIGN.md §3 layout) → canonical YAML, sorted by path. */
  files: ReadonlyMap<string, string>;
  /**
   * Paths of objects that failed to render on this cluster (e.g. a failing override), sorted by
   * path. Their previous content must be kept: a failed render is never a deletion.
   */
  held: Map<string, string>;
  /**
   * Set when this output was made from the output of the memo's render by changing only
   * `paths` (files and held alike): a consumer that has handled `from` need only look there.
   */
  derived?: { from: ClusterOutput; paths: ReadonlySet<string> };
}

export interface RenderOptions {
  /**
   * The memo of a previous render (its `memo`): what did not change is not computed again
   * (render-memo.ts), so a render costs what changed. The output is the same with or without it.
   */
  memo?: RenderMemo;
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
 * follow, override and render (DESIGN.md §2). Pure: the same snapshot gives byte-identical output.
 */
export function renderFleet(snapshot: Snapshot, options: RenderOptions = {}): RenderResult {
  const { fleet } = snapshot;
  const { memo } = options;
  const context = renderContextOf(fleet, snapshot.clusterStatus);
  const same = compareContexts(memo?.context, context);
  const skipRules = compileSkipRules(fleet.config);
  const templates = new Map<string, Template>(fleet.templates.map((t) => [t.key, t]));
  const detected = detect({ snapshot, skipRules, memo: same.policies ? memo : undefined });
  const bound = schedule({
    snapshot,
    claims: detected.result.claims,
    memo: same.placement ? memo : undefined,
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
  const namespaces = ensureNamespacesWithMemo({ bindings, templates, clusters: fleet.clusters }, memo);
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

/**
 * Stage 1, per template. A detection is kept for the previous claim it was made with and for
 * its own claim: the next render reads a binding's own claim back as the previous one, so
 * working that one out now (it costs microseconds) makes the next render find it.
 */
function detect(opts: { snapshot: Snapshot; skipRules: SkipRules; memo: RenderMemo | undefined }) {
  const { fleet, previous } = opts.snapshot;
  const index = indexPolicies(fleet.propagationPolicies);
  const result: DetectResult = { claims: [], skipped: [], unmatched: [] };
  const detections = new Map<string, DetectionMemo>();
  for (const template of fleet.templates) {
    const policy = previous.get(template.key)?.policy;
    const previousPolicy = policy ? policyKeyOf(policy) : '';
    const last = opts.memo?.detections.get(template.key);
    const known = last?.template === template ? last.results : [];
    let detection = known.find((r) => r.previousPolicy === previousPolicy)?.detection;
    let results = known;
    if (!detection) {
      detection = detectTemplate(template, index, policy, opts.skipRules);
      results = [{ previousPolicy, detection }];
      const own = detection.type === 'claimed' ? detection.claim.policy : undefined;
      const ownKey = own ? policyKeyOf(own) : '';
      if (ownKey !== previousPolicy) {
        results.push({
          previousPolicy: ownKey,
          detection: detectTemplate(template, index, own, opts.skipRules),
        });
      }
    }
    detections.set(template.key, { template, results });
    addDetection(result, detection);
  }
  return { result, detections };
}

function policyKeyOf(policy: { kind: string; namespace: string; name: string }): string {
  return `${policy.kind}/${policy.namespace}/${policy.name}`;
}

/**
 * Stage 2, per claim. A binding is kept for the previous placement it was scheduled with and
 * for its own placement, which the next render reads back as the previous one: scheduling
 * with it usually gives the same binding (then the same object, so later stages reuse their
 * work), but not always, e.g. a NotReady cluster kept only because it was placed before.
 */
function schedule(opts: { snapshot: Snapshot; claims: readonly Claim[]; memo: RenderMemo | undefined }) {
  const { fleet, clusterStatus } = opts.snapshot;
  const context = { clusters: fleet.clusters, clusterStatus };
  const bindings: Binding[] = [];
  const diagnostics: Diagnostic[] = [];
  const schedules = new Map<string, ScheduleMemo>();
  const placements = new Map<string, PreviousBinding>();
  for (const claim of opts.claims) {
    const previous = opts.snapshot.previous.get(claim.template.key);
    const last = opts.memo?.schedules.get(claim.template.key);
    const known = last?.template === claim.template && last.policy === claim.policy ? last.results : [];
    let bound = known.find((r) => samePrevious(r.previous, previous));
    let results = known;
    if (!bound) {
      bound = scheduledWith(previous, bindClaim(claim, context, previous));
      results = [bound];
      if (!samePrevious(bound.own, previous)) {
        const again = bindClaim(claim, context, bound.own);
        results.push(
          sameSchedule(again, bound) ? { ...bound, previous: bound.own } : scheduledWith(bound.own, again),
        );
      }
    }
    schedules.set(claim.template.key, { template: claim.template, policy: claim.policy, results });
    bindings.push(bound.binding);
    if (bound.own) placements.set(claim.template.key, bound.own);
    if (bound.diagnostic) diagnostics.push(bound.diagnostic);
  }
  return { bindings, diagnostics, schedules, placements };
}

function scheduledWith(
  previous: PreviousBinding | undefined,
  bound: { binding: Binding; diagnostic?: Diagnostic },
): ScheduledWith {
  return { previous, ...bound, own: previousBindingOf(bound.binding) ?? undefined };
}

function sameSchedule(a: { binding: Binding; diagnostic?: Diagnostic }, b: typeof a): boolean {
  const x = a.binding.schedule;
  const y = b.binding.schedule;
  if (a.diagnostic?.message !== b.diagnostic?.message) return false;
  if (x.type !== 'Scheduled' || y.type !== 'Scheduled') return JSON.stringify(x) === JSON.stringify(y);
  if (x.affinityName !== y.affinityName || x.clusters.length !== y.clusters.length) return false;
  return x.clusters.every((c, i) => c.name === y.clusters[i]!.name && c.replicas === y.clusters[i]!.replicas);
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

/**
 * The Namespaces each cluster needs depend only on where bindings go and on the repo's own
 * Namespaces: when every binding has the same namespace, Namespace name and clusters as last
 * time, over the same clusters and Namespace templates, last time's answer stands.
 */
function ensureNamespacesWithMemo(
  input: Parameters<typeof ensureNamespaces>[0],
  memo: RenderMemo | undefined,
): { result: EnsuredNamespaces; memo: NamespacesMemo } {
  const last = memo?.namespaces;
  const placements = new Map<string, { binding: Binding; placement: string }>();
  const namespaceTemplates = [...input.templates.values()].filter(
    (t) => t.ref.kind === 'Namespace' && t.ref.apiVersion === 'v1',
  );
  let same =
    last !== undefined &&
    sameItems(last.clusters, input.clusters) &&
    sameItems(last.namespaceTemplates, namespaceTemplates) &&
    last.placements.size === input.bindings.length;
  for (const binding of input.bindings) {
    const previous = last?.placements.get(binding.key);
    const entry =
      previous?.binding === binding ? previous : { binding, placement: namespacePlacement(binding) };
    same &&= previous !== undefined && previous.placement === entry.placement;
    placements.set(binding.key, entry);
  }
  const result = same ? last!.result : ensureNamespaces(input);
  return { result, memo: { clusters: input.clusters, namespaceTemplates, placements, result } };
}

function namespacePlacement(binding: Binding): string {
  const { resource, schedule } = binding;
  const names = schedule.type === 'Scheduled' ? schedule.clusters.map((c) => c.name).join(',') : '';
  const namespace = resource.kind === 'Namespace' && resource.apiVersion === 'v1' ? resource.name : '';
  return `${resource.namespace}\u0000${namespace}\u0000${names}`;
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

/** The bindings, then per cluster the Namespaces it needs, each with its registered clusters. */
function renderUnitsOf(
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
