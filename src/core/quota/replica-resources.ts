// What one replica of a workload requests, by resource name: Karmada's
// GenerateReplicaRequirements (pkg/util/helper/binding.go) over Resource.AddPodTemplateRequest
// (pkg/util/resource.go), the request its FederatedResourceQuota enforcement multiplies by the
// scheduled replicas (helper.CalculateResourceUsage).
//
// | step                                        | rule                                                   |
// |---------------------------------------------|--------------------------------------------------------|
// | a container's limits                        | stand in for the requests it leaves out                |
// | containers                                  | summed                                                 |
// | init containers                             | each resource: the largest, if above the sum           |
// | spec.overhead                               | added                                                  |
// | names counted                               | cpu (in millicores), memory, ephemeral-storage, pods and the scalar resources (extended, hugepages-*, attachable-volumes-*, kubernetes.io/-prefixed), each in whole units rounded up; others (storage, …) are not |
import type { Template } from '../model/fleet.js';
import { getPath, isMap, type KubeObject } from '../model/kube-object.js';
import { groupOf } from '../model/object-ref.js';
import { parseQuantity, quantityMilliValue, quantityValue } from '../model/parse-quantity.js';

/** Resource name → quantity in nano-units. */
export type ResourceTotals = Map<string, bigint>;

const NANO = 1_000_000_000n;

const POD_SPEC_PATH: Record<string, readonly string[]> = {
  'apps/Deployment': ['spec', 'template', 'spec'],
  'apps/StatefulSet': ['spec', 'template', 'spec'],
  'apps/ReplicaSet': ['spec', 'template', 'spec'],
  'batch/Job': ['spec', 'template', 'spec'],
  '/Pod': ['spec'],
};

/** Returns what one replica of the template requests, or an empty map for objects without a pod template. */
export function replicaResources(template: Template): ResourceTotals {
  const custom = template.interpreted?.replicas?.request;
  if (custom) {
    const totals: ResourceTotals = new Map();
    if (custom.cpuMilli > 0) totals.set('cpu', BigInt(custom.cpuMilli) * 1_000_000n);
    if (custom.memoryBytes > 0) totals.set('memory', BigInt(custom.memoryBytes) * NANO);
    return totals;
  }
  return podRequests(template.object);
}

function podRequests(object: KubeObject): ResourceTotals {
  const path = POD_SPEC_PATH[`${groupOf(object.apiVersion)}/${object.kind}`];
  const podSpec = path ? getPath(object, path) : undefined;
  const total: ResourceTotals = new Map();
  if (!isMap(podSpec)) return total;
  for (const c of listOf(podSpec['containers'])) addInto(total, containerRequests(c));
  for (const c of listOf(podSpec['initContainers']))
    for (const [name, value] of containerRequests(c))
      if (value > (total.get(name) ?? 0n)) total.set(name, value);
  addInto(total, countedList(podSpec['overhead']));
  for (const [name, value] of total) if (value <= 0n) total.delete(name);
  return total;
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function containerRequests(container: unknown): ResourceTotals {
  const requests = getPath(container, ['resources', 'requests']);
  const limits = getPath(container, ['resources', 'limits']);
  return countedList({ ...(isMap(limits) ? limits : {}), ...(isMap(requests) ? requests : {}) });
}

// A resource list as Karmada's Resource holds it: cpu in millicores, the rest in whole units.
function countedList(list: unknown): ResourceTotals {
  const totals: ResourceTotals = new Map();
  if (!isMap(list)) return totals;
  for (const [name, raw] of Object.entries(list)) {
    const nano = parseQuantity(raw);
    if (nano === undefined || !isCounted(name)) continue;
    totals.set(name, name === 'cpu' ? quantityMilliValue(nano) * 1_000_000n : quantityValue(nano) * NANO);
  }
  return totals;
}

function isCounted(name: string): boolean {
  if (['cpu', 'memory', 'ephemeral-storage', 'pods'].includes(name)) return true;
  return name.includes('/') || name.startsWith('hugepages-') || name.startsWith('attachable-volumes-');
}

function addInto(total: ResourceTotals, more: ResourceTotals): void {
  for (const [name, value] of more) total.set(name, (total.get(name) ?? 0n) + value);
}
