// A rendered object as CEL sees it in Kubernetes: JSON integers are CEL ints (int64), other
// numbers doubles, objects maps, arrays lists.
import type { CelInput } from '@bufbuild/cel';

/** Returns the JSON value with its integers as bigint, for CEL's int type. */
export function toCelInput(value: unknown): CelInput {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCelInput) as CelInput;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, CelInput> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toCelInput(v);
    return out as CelInput;
  }
  return value as CelInput;
}
