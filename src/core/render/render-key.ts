import type { Binding } from '../model/binding.js';
import type { Template } from '../model/fleet.js';
import type { OverridePolicy } from '../model/override-policy.js';
import { policyLabel } from '../model/propagation-policy.js';
import type { SelectedOverriders } from '../override/select-overriders.js';
import { textDigest } from '../model/text-digest.js';

/**
 * Content keys of rendered objects: two copies with the same key render to the same text, in
 * this pass or any later one, so a render can reuse the text of a previous render. A key
 * covers everything a rendered copy depends on: the template (its parsed content and file),
 * the binding fields gitfleet writes into metadata, the replicas and completions given to the
 * cluster, the override rules applied (by content), the referrers, and whether replicas stay
 * with the member cluster.
 */
export class RenderKeys {
  // By template object: a source-rendered template's variants (core/sources) share its key.
  private readonly templates = new WeakMap<Template, string>();
  private readonly policies = new WeakMap<OverridePolicy, string>();

  /** Returns the key of one rendered copy. */
  keyOf(opts: {
    template: Template;
    binding: Binding;
    replicas: string;
    selected: readonly SelectedOverriders[];
    requiredBy: readonly string[];
    keepsMemberReplicas: boolean;
  }): string {
    const { binding } = opts;
    const decoration = [
      binding.name,
      binding.resource.namespace,
      binding.policy ? policyLabel(binding.policy) : '',
      binding.origin,
      binding.preserveResourcesOnDeletion,
      binding.conflictResolution,
    ].join('|');
    const rules = opts.selected.map((s) => `${this.policyDigest(s.policy)}#${s.ruleIndex}`).join(',');
    return [
      this.templateDigest(opts.template),
      decoration,
      opts.replicas,
      rules,
      opts.requiredBy.join(','),
      opts.keepsMemberReplicas ? 'keep' : '',
    ].join('\u0000');
  }

  private templateDigest(template: Template): string {
    let digest = this.templates.get(template);
    if (digest === undefined) {
      // A customization's scripts (ReviseReplica) shape the rendered text too.
      const scripts = template.interpreted?.scriptsKey ?? '';
      digest = textDigest(`${template.source.file}\u0000${JSON.stringify(template.object)}\u0000${scripts}`);
      this.templates.set(template, digest);
    }
    return digest;
  }

  private policyDigest(policy: OverridePolicy): string {
    let digest = this.policies.get(policy);
    if (digest === undefined) {
      digest = textDigest(
        `${policy.kind}/${policy.namespace}/${policy.name}\u0000${JSON.stringify(policy.overrideRules)}`,
      );
      this.policies.set(policy, digest);
    }
    return digest;
  }
}
