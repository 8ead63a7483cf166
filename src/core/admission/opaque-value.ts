// The values of Kubernetes' CEL libraries that are not CEL's own (URL, Quantity, IP, CIDR): a map
// with one key naming the type, whose value is the canonical form, so that `==` compares them as
// Kubernetes does (two quantities of one amount are equal) and no fleet object can be taken for
// one by accident (the key is not a field name Kubernetes allows).
import { celMap, CelScalar, isCelMap, mapType, type CelMap } from '@bufbuild/cel';

/** The CEL type the library functions take and return these values as. */
export const opaqueType = mapType(CelScalar.STRING, CelScalar.DYN);

export type OpaqueKind = 'URL' | 'Quantity' | 'IP' | 'CIDR';

/** Returns the CEL value of a library type holding its canonical form. */
export function opaqueValue(kind: OpaqueKind, canonical: string): CelMap {
  return celMap(new Map([[`@${kind}`, canonical]]));
}

/** Returns the canonical form a library value holds; throws (no such overload) for any other value. */
export function opaqueOf(kind: OpaqueKind, value: unknown): string {
  const held = isCelMap(value) && value.size === 1 ? value.get(`@${kind}`) : undefined;
  if (typeof held !== 'string') throw new Error(`no such overload: not a ${kind}`);
  return held;
}
