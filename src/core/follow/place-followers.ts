import type { Binding } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Template } from '../model/fleet.js';
import { skipAutoPropagationLabel } from '../model/gitfleet-keys.js';
import { refKey, refLabel, type ObjectRef } from '../model/object-ref.js';
import { findDependencies } from './find-dependencies.js';
import { scaleTargetOf } from './scale-target.js';
import { isReservedNamespace, isSkippedNamespace, skipReason, type SkipRules } from '../detect/skip-rules.js';
import { followerBinding } from './follower-binding.js';
import { placedClusters } from './placed-clusters.js';

export interface FollowInput {
  /** Bindings of claimed templates, scheduled. */
  bindings: readonly Binding[];
  templates: ReadonlyMap<string, Template>;
  clusters: readonly Cluster[];
  skipRules: SkipRules;
  /** The dependencies of a template (default findDependencies); a render memo passes a cached one. */
  dependenciesOf?: (template: Template) => readonly ObjectRef[];
}

export interface FollowResult {
  followers: Binding[];
  diagnostics: Diagnostic[];
}

/**
 * Returns bindings for templates that go where others go (docs/architecture.md#follow):
 *
 * | follower                                  | lands on                                   | source in Karmada |
 * |-------------------------------------------|--------------------------------------------|-------------------|
 * | a dependency of a `propagateDeps` binding | the union of its referrers' clusters (with those a graceful eviction keeps) | dependencies_distributor.go |
 * | an HPA no policy claims                   | the clusters of its scale target           | (gitfleet rule)   |
 * | a Namespace no policy claims              | every cluster, unless reserved, skipped, `default` or labelled skip-auto-propagation | namespace_sync_controller.go |
 *
 * A template a policy claims keeps that policy's placement: it never follows.
 */
export function placeFollowers(input: FollowInput): FollowResult {
  const claimed = new Map(input.bindings.map((b) => [b.key, b]));
  const diagnostics: Diagnostic[] = [];
  const followers = new Map<string, Follower>();
  for (const binding of input.bindings) {
    if (!binding.propagateDeps) continue;
    const template = input.templates.get(binding.key)!;
    // A GetDependencies script replaces the built-in interpreter (core/interpret).
    const dependencies =
      template.interpreted?.dependencies ??
      (input.dependenciesOf ? input.dependenciesOf(template) : findDependencies(template.object));
    for (const dep of dependencies) {
      addDependency({ dep, binding, claimed, input, followers, diagnostics });
    }
  }
  for (const template of input.templates.values()) {
    if (claimed.has(template.key) || skipReason(template, input.skipRules)) continue;
    const target = scaleTargetOf(template.object);
    if (target) followScaleTarget(template, target, claimed, followers);
    else if (isAutoPropagatedNamespace(template, input.skipRules)) {
      const f = follower(followers, template, 'namespace');
      for (const c of input.clusters) f.clusters.add(c.name);
    }
  }
  return { followers: [...followers.values()].sort(byKey).map(toBinding), diagnostics };
}

interface Follower {
  template: Template;
  origin: 'dependency' | 'scaleTarget' | 'namespace';
  clusters: Set<string>;
  requiredBy: Set<string>;
  /** Inherited from referrers: Overwrite or preserve when any referrer says so. */
  overwrite: boolean;
  preserve: boolean;
}

function follower(map: Map<string, Follower>, template: Template, origin: Follower['origin']): Follower {
  let f = map.get(template.key);
  if (!f) {
    f = { template, origin, clusters: new Set(), requiredBy: new Set(), overwrite: false, preserve: false };
    map.set(template.key, f);
  }
  return f;
}

function addDependency(opts: {
  dep: ObjectRef;
  binding: Binding;
  claimed: ReadonlyMap<string, Binding>;
  input: FollowInput;
  followers: Map<string, Follower>;
  diagnostics: Diagnostic[];
}): void {
  const { dep, binding, input } = opts;
  const key = refKey(dep);
  if (opts.claimed.has(key)) return;
  const template = input.templates.get(key);
  if (!template) {
    opts.diagnostics.push({
      severity: 'warning',
      code: 'DependencyMissing',
      subject: refLabel(binding.resource),
      message: `depends on ${refLabel(dep)}, which is not in the fleet repo`,
    });
    return;
  }
  if (skipReason(template, input.skipRules)) return;
  const f = follower(opts.followers, template, 'dependency');
  f.requiredBy.add(binding.key);
  f.overwrite ||= binding.conflictResolution === 'Overwrite';
  f.preserve ||= binding.preserveResourcesOnDeletion;
  for (const c of scheduledClusters(binding)) f.clusters.add(c);
}

function followScaleTarget(
  template: Template,
  target: ObjectRef,
  claimed: ReadonlyMap<string, Binding>,
  followers: Map<string, Follower>,
): void {
  const targetBinding = claimed.get(refKey(target));
  if (!targetBinding) return;
  const f = follower(followers, template, 'scaleTarget');
  f.requiredBy.add(targetBinding.key);
  for (const c of scheduledClusters(targetBinding)) f.clusters.add(c);
}

/** Returns whether a Namespace template is synced to every cluster by default. */
export function isAutoPropagatedNamespace(template: Template, rules: SkipRules): boolean {
  const { apiVersion, kind, name } = template.ref;
  if (apiVersion !== 'v1' || kind !== 'Namespace') return false;
  if (name === 'default' || isReservedNamespace(name) || isSkippedNamespace(name, rules)) return false;
  // Karmada lowercases the value first (namespace_sync_controller.go): "TRUE" skips too.
  return template.object.metadata.labels?.[skipAutoPropagationLabel]?.toLowerCase() !== 'true';
}

// A follower goes where its referrer's objects are: the scheduled clusters, and those a graceful
// eviction task keeps the referrer's copy on (so the old copy keeps its ConfigMap until the task
// is done).
function scheduledClusters(binding: Binding): string[] {
  return placedClusters(binding).map((c) => c.name);
}

function byKey(a: Follower, b: Follower): number {
  return a.template.key < b.template.key ? -1 : a.template.key > b.template.key ? 1 : 0;
}

function toBinding(f: Follower): Binding {
  return followerBinding({
    ref: f.template.ref,
    origin: f.origin,
    clusters: [...f.clusters],
    requiredBy: [...f.requiredBy],
    overwrite: f.overwrite,
    preserve: f.preserve,
  });
}
