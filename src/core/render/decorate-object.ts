import type { Binding } from '../model/binding.js';
import type { Tenant } from '../model/tenant.js';
import {
  applyAsAnnotation,
  bindingAnnotation,
  conflictResolutionAnnotation,
  managedLabel,
  policyAnnotation,
  preserveAnnotation,
  requiredByAnnotation,
  sourceAnnotation,
  tenantAnnotation,
} from '../model/gitfleet-keys.js';
import type { KubeObject } from '../model/kube-object.js';
import { policyLabel } from '../model/propagation-policy.js';

/**
 * Adds gitfleet's labels and annotations to a rendered object, in place. They are the same on
 * every cluster for the same inputs, so identical copies render to identical text.
 *
 * | key                                  | value                                         |
 * |--------------------------------------|-----------------------------------------------|
 * | label gitfleet.io/managed            | "true": the agent may update and prune it     |
 * | annotation gitfleet.io/binding       | Karmada's binding name, namespace-qualified   |
 * | annotation gitfleet.io/policy        | the claiming policy, when there is one        |
 * | annotation gitfleet.io/source        | the file of the template in the fleet repo    |
 * | annotation gitfleet.io/required-by   | for followers: the bindings it follows        |
 * | annotation gitfleet.io/preserve-on-deletion | "true" when the policy preserves resources |
 * | annotation work.karmada.io/conflict-resolution | "overwrite" from the policy, unless the template sets it |
 * | annotation gitfleet.io/tenant        | the Tenant whose paths hold the template (never the template's own) |
 * | annotation gitfleet.io/apply-as      | `system:serviceaccount:NS:NAME` from the Tenant's impersonate (never the template's own) |
 */
export function decorateObject(
  object: KubeObject,
  binding: Binding,
  sourceFile: string,
  requiredBy: string[],
  tenant?: Tenant,
): void {
  const meta = object.metadata;
  meta.labels = { ...meta.labels, [managedLabel]: 'true' };
  const annotations: Record<string, string> = { ...meta.annotations };
  annotations[bindingAnnotation] = binding.resource.namespace
    ? `${binding.resource.namespace}/${binding.name}`
    : binding.name;
  if (binding.policy) annotations[policyAnnotation] = policyLabel(binding.policy);
  annotations[sourceAnnotation] = sourceFile;
  if (requiredBy.length > 0) annotations[requiredByAnnotation] = requiredBy.join(',');
  if (binding.preserveResourcesOnDeletion) annotations[preserveAnnotation] = 'true';
  if (binding.conflictResolution === 'Overwrite' && annotations[conflictResolutionAnnotation] === undefined) {
    annotations[conflictResolutionAnnotation] = 'overwrite';
  }
  // Who the agent applies it as comes from the protected Tenant only, never from a template.
  delete annotations[tenantAnnotation];
  delete annotations[applyAsAnnotation];
  if (tenant) annotations[tenantAnnotation] = tenant.name;
  const account = tenant?.impersonate?.serviceAccount;
  if (account) annotations[applyAsAnnotation] = `system:serviceaccount:${account.namespace}:${account.name}`;
  meta.annotations = annotations;
}
