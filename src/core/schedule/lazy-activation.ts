import type { HeldSpec, PreviousBinding } from '../model/binding.js';
import type { Template } from '../model/fleet.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';
import { templateHashOf } from './template-hash.js';

/** The fields a binding takes from its policy, and the template hash a Lazy policy's binding keeps. */
export type BindingSpec = Omit<HeldSpec, 'templateHash'> & { templateHash?: string };

/**
 * Returns what a claim's binding is built with (Karmada's detector, pkg/detector/detector.go
 * ApplyPolicy with activationPreference):
 *
 * | claiming policy | previous binding                      | built with                     |
 * |-----------------|---------------------------------------|--------------------------------|
 * | not Lazy        | any                                   | the policy                     |
 * | Lazy            | none, or no template hash recorded    | the policy                     |
 * | Lazy            | recorded hash ≠ the template's        | the policy (the template changed) |
 * | Lazy            | recorded hash = the template's        | the previous binding's spec: a policy change alone moves nothing |
 */
export function bindingSpecOf(
  template: Template,
  policy: PropagationPolicy,
  previous: PreviousBinding | undefined,
): BindingSpec {
  const fromPolicy = {
    placement: policy.placement,
    propagateDeps: policy.propagateDeps,
    conflictResolution: policy.conflictResolution,
    preserveResourcesOnDeletion: policy.preserveResourcesOnDeletion,
  };
  if (policy.activationPreference !== 'Lazy') return fromPolicy;
  const templateHash = templateHashOf(template.object);
  const held = previous?.held;
  return held?.templateHash === templateHash ? held : { ...fromPolicy, templateHash };
}
