// What is wrong with a cluster's policies and bindings themselves, whatever object they meet: an
// expression that does not compile (named with its policy, field and position), a binding naming
// a policy the cluster does not have, a paramRef where the policy has no paramKind or none where
// it has one. Each is an AdmissionPolicyInvalid error on that cluster.
import type { Diagnostic } from '../model/diagnostic.js';
import type { AdmissionPolicy } from './admission-policy.js';
import { isBindable } from './admit-object.js';
import type { ClusterPolicies } from './cluster-policies.js';
import type { CompiledPolicy } from './compile-policy.js';

/** Returns the AdmissionPolicyInvalid errors of a cluster's policies and bindings. */
export function checkBindings(opts: {
  cluster: string;
  policies: ClusterPolicies;
  compiled: (policy: AdmissionPolicy) => CompiledPolicy;
}): Diagnostic[] {
  const { cluster } = opts;
  const invalid = (subject: string, message: string): Diagnostic => ({
    severity: 'error',
    code: 'AdmissionPolicyInvalid',
    subject,
    cluster,
    message,
  });
  const found: Diagnostic[] = [];
  const byName = new Map<string, AdmissionPolicy>();
  for (const policy of opts.policies.policies.values()) {
    byName.set(policy.name, policy);
    for (const error of opts.compiled(policy).errors)
      found.push(invalid(`ValidatingAdmissionPolicy/${policy.name}`, `does not compile: ${error}`));
  }
  for (const binding of opts.policies.bindings.values()) {
    const subject = `ValidatingAdmissionPolicyBinding/${binding.name}`;
    const policy = byName.get(binding.policyName);
    if (!policy)
      found.push(
        invalid(
          subject,
          `names ValidatingAdmissionPolicy/${binding.policyName}, which is not placed on cluster ${cluster}`,
        ),
      );
    else if (!isBindable(policy, binding))
      found.push(
        invalid(
          subject,
          policy.paramKind
            ? `has no paramRef, and ValidatingAdmissionPolicy/${policy.name} has a paramKind`
            : `has a paramRef, and ValidatingAdmissionPolicy/${policy.name} has no paramKind`,
        ),
      );
    if (binding.validationActions.length === 0)
      found.push(invalid(subject, 'names no validationActions (Deny, Warn or Audit)'));
  }
  return found;
}
