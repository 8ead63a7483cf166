import { getPath, isMap, type KubeObject } from '../model/kube-object.js';
import { groupOf } from '../model/object-ref.js';
import { parseQuantity, quantityMilliValue, quantityValue } from '../model/parse-quantity.js';

/** What one replica asks for (Karmada's ReplicaRequirements.resourceRequest); 0 when not requested. */
export interface ReplicaRequest {
  cpuMilli: number;
  memoryBytes: number;
  pods: 1;
}

// Where the pod spec of each workload kind lives, keyed by `group/Kind`. Karmada's default
// replica interpreter (pkg/resourceinterpreter/default/native/replica.go) covers apps
// Deployment/ReplicaSet/StatefulSet, batch Job and core Pod; DaemonSet is added here because
// its pods request resources too (it has no replicas, so this only matters for estimates).
const POD_SPEC_PATH: Record<string, readonly string[]> = {
  'apps/Deployment': ['spec', 'template', 'spec'],
  'apps/StatefulSet': ['spec', 'template', 'spec'],
  'apps/ReplicaSet': ['spec', 'template', 'spec'],
  'apps/DaemonSet': ['spec', 'template', 'spec'],
  'batch/Job': ['spec', 'template', 'spec'],
  '/Pod': ['spec'],
};

interface Totals {
  cpuMilli: bigint;
  memoryBytes: bigint;
}

/**
 * Returns the resources one replica of a workload requests, or undefined for objects without a
 * pod template. Follows Karmada's `Resource.AddPodTemplateRequest` (pkg/util/resource.go):
 *   - a container's `limits` stand in for the `requests` it leaves out (as Kubernetes defaults them);
 *   - containers are summed, init containers contribute their maximum, `overhead` is added;
 *   - CPU is counted in millicores (`MilliValue`), memory in bytes (`Value`), both rounded up.
 */
export function replicaRequestOf(object: KubeObject): ReplicaRequest | undefined {
  const path = POD_SPEC_PATH[`${groupOf(object.apiVersion)}/${object.kind}`];
  const podSpec = path ? getPath(object, path) : undefined;
  if (!isMap(podSpec)) return undefined;
  const total: Totals = { cpuMilli: 0n, memoryBytes: 0n };
  for (const container of listOf(podSpec['containers'])) addTo(total, containerRequests(container));
  for (const container of listOf(podSpec['initContainers'])) maxInto(total, containerRequests(container));
  addTo(total, resourcesOf(podSpec['overhead']));
  return { cpuMilli: Number(total.cpuMilli), memoryBytes: Number(total.memoryBytes), pods: 1 };
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function containerRequests(container: unknown): Totals {
  const requests = getPath(container, ['resources', 'requests']);
  const limits = getPath(container, ['resources', 'limits']);
  const merged = { ...(isMap(limits) ? limits : {}), ...(isMap(requests) ? requests : {}) };
  return resourcesOf(merged);
}

function resourcesOf(list: unknown): Totals {
  if (!isMap(list)) return { cpuMilli: 0n, memoryBytes: 0n };
  const cpu = parseQuantity(list['cpu']);
  const memory = parseQuantity(list['memory']);
  return {
    cpuMilli: cpu === undefined ? 0n : quantityMilliValue(cpu),
    memoryBytes: memory === undefined ? 0n : quantityValue(memory),
  };
}

function addTo(total: Totals, more: Totals): void {
  total.cpuMilli += more.cpuMilli;
  total.memoryBytes += more.memoryBytes;
}

function maxInto(total: Totals, other: Totals): void {
  if (other.cpuMilli > total.cpuMilli) total.cpuMilli = other.cpuMilli;
  if (other.memoryBytes > total.memoryBytes) total.memoryBytes = other.memoryBytes;
}
