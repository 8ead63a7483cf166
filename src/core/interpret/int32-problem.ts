/** The largest value of a Kubernetes int32 field (a workload's replicas). */
export const INT32_MAX = 2 ** 31 - 1;

/**
 * Returns why a number a script gave for a field Kubernetes types as a non-negative int32
 * (replicas) cannot be used, or undefined when it can. Karmada casts such a number to int32,
 * so -3 and 2^31 become replica counts nobody asked for; gitfleet refuses them instead, and the
 * object keeps its last good state.
 */
export function int32Problem(field: string, value: number): string | undefined {
  if (!Number.isFinite(value)) return `${field} ${value} is not a number Kubernetes can store`;
  if (!Number.isInteger(value)) return `${field} ${value} is not a whole number`;
  if (value < 0) return `${field} ${value} is negative`;
  if (value > INT32_MAX) return `${field} ${BigInt(value)} is more than ${INT32_MAX} (int32)`;
  return undefined;
}
