import type { OverridePolicy } from '../model/override-policy.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';

/** The override policies of a fleet by label (`OverridePolicy/ns/name`, `ClusterOverridePolicy/name`). */
export type OverrideNames = ReadonlySet<string>;

/** Returns the labels of the override policies a fleet holds, built once per render. */
export function overrideNamesOf(overrides: readonly OverridePolicy[]): OverrideNames {
  return new Set(overrides.map((o) => overrideLabel(o.kind, o.namespace, o.name)));
}

/**
 * Returns the policy's dependentOverrides that the fleet does not hold, as labels, in the order
 * the policy lists them. Karmada's IsDependentOverridesPresent (pkg/util/helper/policy.go): a
 * PropagationPolicy's names are OverridePolicies of its own namespace, a
 * ClusterPropagationPolicy's are ClusterOverridePolicies.
 */
export function findMissingOverrides(policy: PropagationPolicy, present: OverrideNames): string[] {
  const kind = policy.kind === 'PropagationPolicy' ? 'OverridePolicy' : 'ClusterOverridePolicy';
  return policy.dependentOverrides
    .map((name) => overrideLabel(kind, policy.namespace, name))
    .filter((label) => !present.has(label));
}

function overrideLabel(kind: string, namespace: string, name: string): string {
  return namespace ? `${kind}/${namespace}/${name}` : `${kind}/${name}`;
}
