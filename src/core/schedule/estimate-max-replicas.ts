import type { ClusterStatus } from '../model/cluster.js';
import { parseQuantity, quantityMilliValue, quantityValue } from '../model/parse-quantity.js';
import type { ReplicaRequest } from './replica-request-of.js';

export type ResourceSummary = NonNullable<ClusterStatus['resourceSummary']>;

export const MAX_INT32 = 2_147_483_647;

/**
 * Returns how many more replicas fit in a cluster by its resourceSummary (Karmada's general
 * estimator, pkg/estimator/client/general.go, maxAvailableReplicas):
 *   1. pods:     allowed = allocatable − allocated − allocating of `pods`; ≤ 0 ⇒ 0.
 *   2. no CPU or memory requested ⇒ `allowed`.
 *   3. for CPU and memory when requested: the resource missing from allocatable ⇒ 0;
 *      available = allocatable − allocated − allocating; whole units ≤ 0 ⇒ 0; otherwise
 *      available / request, in millicores for CPU and bytes for memory, rounded down.
 *   4. the minimum of all of these, capped at int32.
 * Unparsable quantities count as absent.
 */
export function estimateMaxReplicas(summary: ResourceSummary, request: ReplicaRequest | undefined): number {
  const allowedPods = availableOf(summary, 'pods');
  if (allowedPods === undefined || quantityValue(allowedPods) <= 0n) return 0;
  let maximum = quantityValue(allowedPods);
  const bounds: [string, number, (nano: bigint) => bigint][] = [
    ['cpu', request?.cpuMilli ?? 0, quantityMilliValue],
    ['memory', request?.memoryBytes ?? 0, quantityValue],
  ];
  for (const [resource, requested, unitsOf] of bounds) {
    if (requested <= 0) continue;
    const available = availableOf(summary, resource);
    if (available === undefined || quantityValue(available) <= 0n) return 0;
    const fit = unitsOf(available) / BigInt(requested);
    if (fit < maximum) maximum = fit;
  }
  return Number(maximum > BigInt(MAX_INT32) ? BigInt(MAX_INT32) : maximum);
}

// allocatable − allocated − allocating of one resource, in nano-units; undefined when the
// cluster does not report the resource as allocatable.
function availableOf(summary: ResourceSummary, resource: string): bigint | undefined {
  const allocatable = parseQuantity(summary.allocatable?.[resource]);
  if (allocatable === undefined) return undefined;
  const allocated = parseQuantity(summary.allocated?.[resource]) ?? 0n;
  const allocating = parseQuantity(summary.allocating?.[resource]) ?? 0n;
  return allocatable - allocated - allocating;
}
