import type { Binding } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Fleet, Template } from '../model/fleet.js';
import { retainReplicasLabel } from '../model/gitfleet-keys.js';
import { deepCopy, isMap, type KubeObject } from '../model/kube-object.js';
import { refKey } from '../model/object-ref.js';
import { scaleTargetOf } from '../follow/scale-target.js';
import { applyOverriders } from '../override/apply-overriders.js';
import { hasReplicas } from '../override/template-replicas.js';
import { reviseReplicas } from '../override/revise-replicas.js';
import { divideJobCompletions } from './divide-job-completions.js';
import { selectOverriders, type SelectedOverriders } from '../override/select-overriders.js';
import { decorateObject } from './decorate-object.js';
import { emitYaml } from './emit-yaml.js';
import { objectPath } from './object-path.js';
import { RenderKeys } from './render-key.js';
import { stripServerFields } from './strip-server-fields.js';

export type RenderOutcome =
  { ok: true; path: string; text: string } | { ok: false; path: string; error: string };

/** Rendered outcomes by content key (see RenderKeys), kept from one render to the next. */
export type RenderMemo = ReadonlyMap<string, RenderOutcome>;

export interface ObjectRenderer {
  /** The outcomes this renderer produced or reused, by content key: the memo for the next render. */
  readonly used: ReadonlyMap<string, RenderOutcome>;
  /** Returns the rendered object of a binding on a cluster, or undefined when it does not go there. */
  render(binding: Binding, cluster: Cluster): RenderOutcome | undefined;
}

/**
 * Returns a renderer that turns a binding into one cluster's manifest (Karmada's ensureWork,
 * pkg/controllers/binding/common.go): deep copy, revise replicas to the cluster's share, apply
 * overrides (last: they can override anything), strip server fields, add gitfleet's metadata,
 * emit canonical YAML. Copies that come out the same on several clusters (same replicas, same
 * override rules, same referrers) are rendered once.
 */
export function createObjectRenderer(opts: {
  fleet: Fleet;
  templates: ReadonlyMap<string, Template>;
  bindings: readonly Binding[];
  /** Outcomes of a previous render by content key; reused when the key matches. */
  memo?: RenderMemo;
}): ObjectRenderer {
  const scaleTargets = collectScaleTargets(opts.fleet.templates);
  const clustersOf = new Map(opts.bindings.map((b) => [b.key, scheduledOn(b)]));
  const keys = new RenderKeys();
  const used: Map<string, RenderOutcome> = new Map();
  const completions = new Map<string, ReadonlyMap<string, number> | undefined>();
  const completionsOf = (binding: Binding, template: Template) => {
    if (!completions.has(binding.key))
      completions.set(binding.key, divideJobCompletions(binding, template.object));
    return completions.get(binding.key);
  };
  return {
    used,
    render(binding, cluster) {
      const target = clustersOf.get(binding.key)?.get(cluster.name) ?? targetOf(binding, cluster.name);
      if (target === undefined) return undefined;
      const template = opts.templates.get(binding.key)!;
      const selected = selectOverriders({
        object: template.object,
        cluster,
        policies: opts.fleet.overridePolicies,
        clusterPoliciesOnly: binding.overrides === 'clusterOnly',
      });
      const requiredBy = binding.requiredBy.filter((k) => clustersOf.get(k)?.has(cluster.name));
      const revise = binding.origin === 'policy' && hasReplicas(template.object);
      const jobCompletions = revise ? completionsOf(binding, template)?.get(cluster.name) : undefined;
      const keep = keepsMemberReplicas(template, scaleTargets);
      const replicas = revise ? `${target}/${jobCompletions ?? ''}` : '';
      const key = keys.keyOf({
        template,
        binding,
        replicas,
        selected,
        requiredBy,
        keepsMemberReplicas: keep,
      });
      let outcome = used.get(key) ?? opts.memo?.get(key);
      if (!outcome) {
        outcome = renderCopy({
          template,
          binding,
          selected,
          requiredBy,
          keep,
          ...(revise ? { replicas: target } : {}),
          ...(jobCompletions !== undefined ? { completions: jobCompletions } : {}),
        });
      }
      used.set(key, outcome);
      return outcome;
    },
  };
}

function renderCopy(opts: {
  template: Template;
  binding: Binding;
  replicas?: number;
  completions?: number;
  selected: readonly SelectedOverriders[];
  requiredBy: string[];
  keep: boolean;
}): RenderOutcome {
  const { template } = opts;
  const path = objectPath(template.ref);
  let object: KubeObject =
    opts.replicas === undefined
      ? deepCopy(template.object)
      : reviseReplicas(
          template.object,
          opts.replicas,
          opts.completions === undefined ? {} : { completions: opts.completions },
        );
  if (opts.selected.length > 0) {
    const outcome = applyOverriders(object, opts.selected);
    if (!outcome.ok) return { ok: false, path, error: outcome.error };
    object = outcome.object;
  }
  stripServerFields(object);
  if (opts.keep && isMap(object.spec)) delete object.spec.replicas;
  decorateObject(object, opts.binding, template.source.file, opts.requiredBy);
  return { ok: true, path, text: emitYaml(object) };
}

// Replicas are left to the member cluster when the template asks for it (Karmada's
// retain-replicas label) or an HPA scales it: rendering them would fight the autoscaler.
function keepsMemberReplicas(template: Template, scaleTargets: ReadonlySet<string>): boolean {
  return template.object.metadata.labels?.[retainReplicasLabel] === 'true' || scaleTargets.has(template.key);
}

function collectScaleTargets(templates: readonly Template[]): Set<string> {
  const targets = new Set<string>();
  for (const t of templates) {
    const target = scaleTargetOf(t.object);
    if (target) targets.add(refKey(target));
  }
  return targets;
}

// Cluster name → replicas of a binding's scheduling result.
function scheduledOn(binding: Binding): Map<string, number> {
  return new Map(
    binding.schedule.type === 'Scheduled' ? binding.schedule.clusters.map((c) => [c.name, c.replicas]) : [],
  );
}

// Namespace bindings made per cluster are not in the index; look them up directly.
function targetOf(binding: Binding, cluster: string): number | undefined {
  return binding.schedule.type === 'Scheduled'
    ? binding.schedule.clusters.find((c) => c.name === cluster)?.replicas
    : undefined;
}
