import type { Binding } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Fleet, Template } from '../model/fleet.js';
import { retainReplicasLabel } from '../model/gitfleet-keys.js';
import { deepCopy, isMap, type KubeObject } from '../model/kube-object.js';
import { refKey } from '../model/object-ref.js';
import { scaleTargetOf } from '../follow/scale-target.js';
import { applyOverriders } from '../override/apply-overriders.js';
import { hasReplicas, templateReplicas } from '../override/template-replicas.js';
import { reviseReplicas } from '../override/revise-replicas.js';
import { reviseTemplateReplicas } from '../interpret/revise-template-replicas.js';
import type { ResourceInterpreter } from '../model/resource-interpreter.js';
import { divideJobCompletions } from '../schedule/divide-job-completions.js';
import { placedClusters } from '../follow/placed-clusters.js';
import { selectOverriders, type SelectedOverriders } from '../override/select-overriders.js';
import { decorateObject } from './decorate-object.js';
import {
  injectPreservedLabels,
  preservedLabelsFor,
  preservedLabelsKey,
} from '../failover/state-preservation.js';
import { emitYaml } from '../format/emit-yaml.js';
import { checkRecipient } from '../secrets/check-recipient.js';
import { overrideEncrypted, sealEncryptedCopy } from './render-encrypted-copy.js';
import { objectPath } from '../format/object-path.js';
import { checkObjectSize } from './check-render-size.js';
import { RenderKeys } from './render-key.js';
import { stripServerFields } from './strip-server-fields.js';
import type { Tenancy } from '../tenancy/create-tenancy.js';
import { formatTenantRefusal, type TenantRefusal } from '../tenancy/tenant-refusal.js';
import type { Tenant } from '../model/tenant.js';

export type RenderOutcome =
  | { ok: true; path: string; text: string }
  /**
   * `tooLarge`: refused for its size (check-render-size.ts), not for an override or a script;
   * `tenantRefused`: refused by a Tenant's rules (core/tenancy); `noRecipient`: an encrypted file
   * placed on a cluster whose age key is not among its recipients; `quotaExceeded`: refused by a
   * FederatedResourceQuota's overall limit (core/quota).
   */
  | {
      ok: false;
      path: string;
      error: string;
      tooLarge?: true;
      tenantRefused?: true;
      noRecipient?: true;
      quotaExceeded?: true;
    };

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
  /** Every binding by key, for the clusters of a follower's referrers. */
  bindings: ReadonlyMap<string, Binding>;
  /** The tenants' rules, when the fleet has tenants. */
  tenancy?: Tenancy | undefined;
}): ObjectRenderer {
  const scaleTargets = collectScaleTargets(opts.fleet.templates);
  const scheduled = new Map<string, ReadonlySet<string>>();
  const isScheduledOn = (key: string, cluster: string) => {
    let clusters = scheduled.get(key);
    if (clusters === undefined) {
      const binding = opts.bindings.get(key);
      // Placed: scheduled, or kept on a cluster it is being evicted from gracefully.
      clusters = new Set(binding ? placedClusters(binding).map((c) => c.name) : []);
      scheduled.set(key, clusters);
    }
    return clusters.has(cluster);
  };
  const keys = new RenderKeys();
  // A source-rendered template's content on a cluster it renders differently for (core/sources):
  // one template per variant, shared by the clusters that have it.
  const variants = new Map<KubeObject, Template>();
  const variantOf = (template: Template, cluster: string): Template => {
    const object = template.variants?.get(cluster);
    if (object === undefined) return template;
    let made = variants.get(object);
    if (made === undefined) {
      const { variants: _all, ...rest } = template;
      variants.set(object, (made = { ...rest, object }));
    }
    return made;
  };
  // Content key → the copy made for it: copies with one key are one object (a Duplicated
  // template's copies on fifty clusters are one), which the hub memo then keeps once.
  const used = new Map<string, RenderedCopy>();
  const completions = new Map<string, ReadonlyMap<string, number> | undefined>();
  const completionsOf = (binding: Binding, template: Template) => {
    if (!completions.has(binding.key))
      completions.set(binding.key, divideJobCompletions(binding, template.object));
    return completions.get(binding.key);
  };
  const keepsMemberReplicas = (template: Template) =>
    template.object.metadata.labels?.[retainReplicasLabel] === 'true' || scaleTargets.has(template.key);
  return {
    keepsMemberReplicas,
    render(binding, cluster, given, reuse) {
      const base = opts.templates.get(binding.key)!;
      const template = variantOf(base, cluster.name);
      // Duplicated, each cluster runs the template's replicas: a variant's own, where it has one.
      const target =
        template !== base &&
        binding.placement.replicaScheduling.replicaSchedulingType === 'Duplicated' &&
        hasReplicas(template.object)
          ? templateReplicas(template.object)
          : given;
      // Per cluster, before the copies shared between clusters: the cluster's key must open it.
      const unreadable = template.encrypted ? checkRecipient(template, cluster) : undefined;
      if (unreadable !== undefined)
        return {
          key: `${binding.key}#recipient:${cluster.name}`,
          outcome: { ok: false, path: objectPath(template.ref), error: unreadable, noRecipient: true },
        };
      const selected = selectOverriders({
        object: template.object,
        cluster,
        policies: opts.fleet.overridePolicies,
        clusterPoliciesOnly: binding.overrides === 'clusterOnly',
      });
      const requiredBy = binding.requiredBy.filter((k) => isScheduledOn(k, cluster.name));
      const revise =
        binding.origin === 'policy' &&
        (hasReplicas(template.object) || !!template.interpreted?.revisesReplicas);
      const jobCompletions = revise ? completionsOf(binding, template)?.get(cluster.name) : undefined;
      // Replicas are left to the member cluster when the template asks for it (Karmada's
      // retain-replicas label) or an HPA scales it: rendering them would fight the autoscaler.
      const keep = keepsMemberReplicas(template);
      const replicas = revise ? `${target}/${jobCompletions ?? ''}` : '';
      // Application failover's preserved labels (core/failover/state-preservation.ts) are part of the copy's content.
      const preserved = preservedLabelsFor(binding, cluster.name);
      const key =
        keys.keyOf({
          template,
          binding,
          replicas,
          selected,
          requiredBy,
          keepsMemberReplicas: keep,
        }) + preservedLabelsKey(preserved);
      const made = used.get(key);
      if (made) return made;
      let outcome = reuse?.get(key);
      if (!outcome) {
        outcome = renderCopy({
          template,
          binding,
          selected,
          requiredBy,
          keep,
          interpreter: opts.fleet.interpreter,
          ...tenancyOf(opts.tenancy, template, selected),
          ...(preserved ? { preserved } : {}),
          ...(revise ? { replicas: target } : {}),
          ...(jobCompletions !== undefined ? { completions: jobCompletions } : {}),
        });
      }
      const copy = { key, outcome };
      used.set(key, copy);
      return copy;
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
  interpreter: ResourceInterpreter | undefined;
  preserved?: Readonly<Record<string, string>>;
  tenant?: Tenant;
  refused?: TenantRefusal;
}): RenderOutcome {
  const { template } = opts;
  const path = objectPath(template.ref);
  if (opts.refused)
    return {
      ok: false,
      path,
      error: formatTenantRefusal(opts.refused, template.source.file),
      tenantRefused: true,
    };
  if (template.interpreted?.error) return { ok: false, path, error: template.interpreted.error };
  const custom =
    opts.replicas === undefined
      ? undefined
      : reviseTemplateReplicas(template, opts.replicas, opts.interpreter);
  if (custom && !custom.ok) return { ok: false, path, error: custom.error };
  let object: KubeObject = custom
    ? custom.object
    : opts.replicas === undefined
      ? deepCopy(template.object)
      : reviseReplicas(
          template.object,
          opts.replicas,
          opts.completions === undefined ? {} : { completions: opts.completions },
        );
  if (opts.selected.length > 0) {
    const outcome = template.encrypted
      ? overrideEncrypted(template, object, opts.selected)
      : applyOverriders(object, opts.selected);
    if (!outcome.ok) return { ok: false, path, error: outcome.error };
    object = outcome.object;
  }
  stripServerFields(object);
  if (opts.keep && isMap(object.spec)) delete object.spec.replicas;
  decorateObject(object, opts.binding, template.source.file, opts.requiredBy, opts.tenant);
  if (opts.preserved) injectPreservedLabels(object, opts.preserved);
  const sealed = template.encrypted ? sealEncryptedCopy(template, object) : undefined;
  if (sealed !== undefined) return { ok: false, path, error: sealed };
  const text = emitYaml(object, { keepOrder: template.encrypted !== undefined });
  const tooLarge = checkObjectSize(object, text);
  if (tooLarge !== undefined) return { ok: false, path, error: tooLarge, tooLarge: true };
  return { ok: true, path, text };
}

// The template's tenant and, when another tenant's override rules select it, the refusal.
function tenancyOf(
  tenancy: Tenancy | undefined,
  template: Template,
  selected: readonly SelectedOverriders[],
): { tenant?: Tenant; refused?: TenantRefusal } {
  if (!tenancy) return {};
  const tenant = tenancy.ownerOf(template);
  const refused =
    selected.length > 0
      ? tenancy.checkOverrides(
          template,
          selected.map((s) => s.policy),
        )
      : undefined;
  return { ...(tenant ? { tenant } : {}), ...(refused ? { refused } : {}) };
}

function collectScaleTargets(templates: readonly Template[]): Set<string> {
  const targets = new Set<string>();
  for (const t of templates) {
    const target = scaleTargetOf(t.object);
    if (target) targets.add(refKey(target));
  }
  return targets;
}
