import type { SpreadByField, SpreadConstraint } from '../model/propagation-policy.js';

/** A spread constraint's group limits, as Karmada reads them (unset = 0). */
export interface GroupLimits {
  minGroups: number;
  maxGroups: number;
}

/**
 * Returns the limits of the constraint spreading by `field`, the last one winning as in
 * Karmada's spreadConstraintMap, or zeros when there is none (Go's zero value). An unset
 * maxGroups is 0: Karmada has no default for it (pkg/util/helper/policy.go defaults only minGroups).
 */
export function spreadConstraintByField(
  constraints: readonly SpreadConstraint[],
  field: SpreadByField,
): GroupLimits {
  const constraint = constraints.filter((c) => c.spreadByField === field).at(-1);
  return { minGroups: constraint?.minGroups ?? 0, maxGroups: constraint?.maxGroups ?? 0 };
}
