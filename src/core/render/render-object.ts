import type { Binding } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Fleet, Template } from '../model/fleet.js';
import { retainReplicasLabel } from '../model/gitfleet-keys.js';
import type { KubeObject } from '../model/kube-object.js';
import { refKey } from '../model/object-ref.js';
import { scaleTargetOf } from '../follow/scale-target.js';
import { hasReplicas, templateReplicas } from '../override/template-replicas.js';
import { divideJobCompletions } from '../schedule/divide-job-completions.js';
import { placedClusters } from '../follow/placed-clusters.js';
import { selectOverriders } from '../override/select-overriders.js';
import { preservedLabelsFor, preservedLabelsKey } from '../failover/state-preservation.js';
import { checkRecipient } from '../secrets/check-recipient.js';
import { objectPath } from '../format/object-path.js';
import { RenderKeys } from './render-key.js';
import { renderCopy, type CopyInput, type RenderOutcome } from './render-copy.js';
import type { Tenancy } from '../tenancy/create-tenancy.js';

/** A rendered copy and its content key (see RenderKeys). */
export interface RenderedCopy {
  key: string;
  outcome: RenderOutcome;
}

export interface ObjectRenderer {
  /**
   * Returns the rendered copy of a binding on a cluster it is scheduled on with `target`
   * replicas; `reuse` gives the outcome a previous render made for a content key, if any.
   */
  render(
    binding: Binding,
    cluster: Cluster,
    target: number,
    reuse?: ReadonlyMap<string, RenderOutcome>,
  ): RenderedCopy;
  /** Returns whether the member cluster keeps a template's replicas (they are not rendered). */
  keepsMemberReplicas(template: Template): boolean;
}

export interface ObjectRendererOptions {
  fleet: Fleet;
  templates: ReadonlyMap<string, Template>;
  /** Every binding by key, for the clusters of a follower's referrers. */
  bindings: ReadonlyMap<string, Binding>;
  /** The tenants' rules, when the fleet has tenants. */
  tenancy?: Tenancy | undefined;
}

/**
 * Returns a renderer that turns a binding into one cluster's manifest (render-copy.ts, Karmada's
 * ensureWork). Copies that come out the same on several clusters (same replicas, same override
 * rules, same referrers) are rendered once.
 */
export function createObjectRenderer(opts: ObjectRendererOptions): ObjectRenderer {
  const scaleTargets = collectScaleTargets(opts.fleet.templates);
  const renderer: RendererState = {
    opts,
    keys: new RenderKeys(),
    used: new Map(),
    isScheduledOn: scheduledOnLookup(opts.bindings),
    variantOf: variantLookup(),
    completionsOf: completionsLookup(),
    // Replicas are left to the member cluster when the template asks for it (Karmada's
    // retain-replicas label) or an HPA scales it: rendering them would fight the autoscaler.
    keepsMemberReplicas: (template) =>
      template.object.metadata.labels?.[retainReplicasLabel] === 'true' || scaleTargets.has(template.key),
  };
  return {
    keepsMemberReplicas: renderer.keepsMemberReplicas,
    render: (binding, cluster, target, reuse) =>
      renderOnCluster(renderer, { binding, cluster, target, reuse }),
  };
}

/** What one renderer keeps between its copies, and the lookups it makes them with. */
interface RendererState {
  opts: ObjectRendererOptions;
  keys: RenderKeys;
  /**
   * Content key → the copy made for it: copies with one key are one object (a Duplicated
   * template's copies on fifty clusters are one), which the hub memo then keeps once.
   */
  used: Map<string, RenderedCopy>;
  isScheduledOn(key: string, cluster: string): boolean;
  variantOf(template: Template, cluster: string): Template;
  completionsOf(binding: Binding, template: Template): ReadonlyMap<string, number> | undefined;
  keepsMemberReplicas(template: Template): boolean;
}

/** Returns a binding's copy on one cluster: the one made for its content key, else rendered. */
function renderOnCluster(
  renderer: RendererState,
  on: {
    binding: Binding;
    cluster: Cluster;
    target: number;
    reuse: ReadonlyMap<string, RenderOutcome> | undefined;
  },
): RenderedCopy {
  const { binding, cluster } = on;
  const base = renderer.opts.templates.get(binding.key)!;
  const template = renderer.variantOf(base, cluster.name);
  // Per cluster, before the copies shared between clusters: the cluster's key must open it.
  const unreadable = template.encrypted ? checkRecipient(template, cluster) : undefined;
  if (unreadable !== undefined)
    return {
      key: `${binding.key}#recipient:${cluster.name}`,
      outcome: { ok: false, path: objectPath(template.ref), error: unreadable, noRecipient: true },
    };
  // Duplicated, each cluster runs the template's replicas: a variant's own, where it has one.
  const target =
    template !== base &&
    binding.placement.replicaScheduling.replicaSchedulingType === 'Duplicated' &&
    hasReplicas(template.object)
      ? templateReplicas(template.object)
      : on.target;
  const { key, input } = planCopy(renderer, { binding, cluster, template, target });
  const made = renderer.used.get(key);
  if (made) return made;
  const copy = { key, outcome: on.reuse?.get(key) ?? renderCopy(input) };
  renderer.used.set(key, copy);
  return copy;
}

/** Returns the copy's content key and what it is rendered from. */
function planCopy(
  renderer: RendererState,
  copy: { binding: Binding; cluster: Cluster; template: Template; target: number },
): { key: string; input: CopyInput } {
  const { binding, cluster, template, target } = copy;
  const { fleet, tenancy } = renderer.opts;
  const selected = selectOverriders({
    object: template.object,
    cluster,
    policies: fleet.overridePolicies,
    clusterPoliciesOnly: binding.overrides === 'clusterOnly',
  });
  const requiredBy = binding.requiredBy.filter((k) => renderer.isScheduledOn(k, cluster.name));
  const revise =
    binding.origin === 'policy' && (hasReplicas(template.object) || !!template.interpreted?.revisesReplicas);
  const completions = revise ? renderer.completionsOf(binding, template)?.get(cluster.name) : undefined;
  const keep = renderer.keepsMemberReplicas(template);
  const replicas = revise ? `${target}/${completions ?? ''}` : '';
  // Application failover's preserved labels (core/failover/state-preservation.ts) are part of the copy's content.
  const preserved = preservedLabelsFor(binding, cluster.name);
  const key =
    renderer.keys.keyOf({ template, binding, replicas, selected, requiredBy, keepsMemberReplicas: keep }) +
    preservedLabelsKey(preserved);
  const input: CopyInput = {
    template,
    binding,
    selected,
    requiredBy,
    keep,
    interpreter: fleet.interpreter,
    tenancy,
    ...(preserved ? { preserved } : {}),
    ...(revise ? { replicas: target } : {}),
    ...(completions !== undefined ? { completions } : {}),
  };
  return { key, input };
}

/** Returns whether a binding is placed on a cluster: scheduled, or kept there while it is evicted gracefully. */
function scheduledOnLookup(bindings: ReadonlyMap<string, Binding>): RendererState['isScheduledOn'] {
  const scheduled = new Map<string, ReadonlySet<string>>();
  return (key, cluster) => {
    let clusters = scheduled.get(key);
    if (clusters === undefined) {
      const binding = bindings.get(key);
      clusters = new Set(binding ? placedClusters(binding).map((c) => c.name) : []);
      scheduled.set(key, clusters);
    }
    return clusters.has(cluster);
  };
}

/**
 * Returns a source-rendered template's content on a cluster it renders differently for
 * (core/sources): one template per variant, shared by the clusters that have it.
 */
function variantLookup(): RendererState['variantOf'] {
  const variants = new Map<KubeObject, Template>();
  return (template, cluster) => {
    const object = template.variants?.get(cluster);
    if (object === undefined) return template;
    let made = variants.get(object);
    if (made === undefined) {
      const { variants: _all, ...rest } = template;
      variants.set(object, (made = { ...rest, object }));
    }
    return made;
  };
}

/** Returns each cluster's share of a Job's completions, divided once per binding. */
function completionsLookup(): RendererState['completionsOf'] {
  const completions = new Map<string, ReadonlyMap<string, number> | undefined>();
  return (binding, template) => {
    if (!completions.has(binding.key))
      completions.set(binding.key, divideJobCompletions(binding, template.object));
    return completions.get(binding.key);
  };
}

function collectScaleTargets(templates: readonly Template[]): Set<string> {
  const targets = new Set<string>();
  for (const t of templates) {
    const target = scaleTargetOf(t.object);
    if (target) targets.add(refKey(target));
  }
  return targets;
}
