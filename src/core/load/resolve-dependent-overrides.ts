import type { OverridePolicy } from '../model/override-policy.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';

/** Last load's waiting policies: each as written, and as given the missing overrides. */
export type WaitingPolicies = ReadonlyMap<PropagationPolicy, PropagationPolicy>;

/**
 * Returns the policies with `missingOverrides` set on each whose dependentOverrides the fleet
 * does not all hold, and the waiting ones for the next load. Karmada's IsDependentOverridesPresent
 * and IsDependentClusterOverridesPresent (pkg/util/helper/policy.go): a PropagationPolicy's
 * names are OverridePolicies of its own namespace, a ClusterPropagationPolicy's are
 * ClusterOverridePolicies. A policy with nothing missing is the object as loaded, and a waiting
 * one is last load's object while it waits for the same names, so the render's memo sees a
 * policy change exactly when an override it waits for comes or goes.
 */
export function resolveDependentOverrides(
  policies: readonly PropagationPolicy[],
  overrides: readonly OverridePolicy[],
  last: WaitingPolicies | undefined,
): { policies: PropagationPolicy[]; waiting: Map<PropagationPolicy, PropagationPolicy> } {
  const present = new Set(overrides.map((o) => overrideLabel(o.kind, o.namespace, o.name)));
  const waiting = new Map<PropagationPolicy, PropagationPolicy>();
  const resolved = policies.map((policy) => {
    if (policy.dependentOverrides.length === 0) return policy;
    const kind = policy.kind === 'PropagationPolicy' ? 'OverridePolicy' : 'ClusterOverridePolicy';
    const missing = policy.dependentOverrides
      .map((name) => overrideLabel(kind, policy.namespace, name))
      .filter((label) => !present.has(label));
    if (missing.length === 0) return policy;
    const before = last?.get(policy);
    const same = before?.missingOverrides?.join('\n') === missing.join('\n');
    const marked = same && before ? before : { ...policy, missingOverrides: missing };
    waiting.set(policy, marked);
    return marked;
  });
  return { policies: resolved, waiting };
}

function overrideLabel(kind: string, namespace: string, name: string): string {
  return namespace ? `${kind}/${namespace}/${name}` : `${kind}/${name}`;
}
