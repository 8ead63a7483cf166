import type { ReplicaRequirements } from '../model/resource-interpreter.js';
import { parseQuantity, quantityMilliValue, quantityValue } from '../model/parse-quantity.js';

/**
 * Returns the per-replica request the scheduler's estimate uses (cpu in millicores, memory in
 * bytes, as replica-request-of.ts reads a pod template) from GetReplicas' requirements, or
 * undefined when they request neither cpu nor memory.
 */
export function replicaRequestOfRequirements(
  requirements: ReplicaRequirements | undefined,
): { cpuMilli: number; memoryBytes: number; pods: 1 } | undefined {
  const request = requirements?.resourceRequest;
  if (request === undefined) return undefined;
  const cpu = parseQuantity(request['cpu']);
  const memory = parseQuantity(request['memory']);
  if (cpu === undefined && memory === undefined) return undefined;
  return {
    cpuMilli: cpu === undefined ? 0 : Number(quantityMilliValue(cpu)),
    memoryBytes: memory === undefined ? 0 : Number(quantityValue(memory)),
    pods: 1,
  };
}
