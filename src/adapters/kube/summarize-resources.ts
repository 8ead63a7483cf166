// A cluster's node and resource summary from its Nodes and Pods, as Karmada's cluster status
// controller computes it (pkg/controllers/status/cluster_status_controller.go):
//
// | field        | rule                                                                        |
// |--------------|-----------------------------------------------------------------------------|
// | nodes total  | every Node                                                                  |
// | nodes ready  | Nodes whose Ready condition is True (helper.NodeReady)                      |
// | allocatable  | the sum of every Node's status.allocatable, per resource                   |
// | allocating   | requests of Pods not bound to a node (no spec.nodeName), plus their count as `pods` |
// | allocated    | requests of bound Pods not Succeeded or Failed, plus their count as `pods`  |
//
// A Pod's request is the larger, per resource, of the sum of its containers' requests and the
// largest init container request, plus its overhead (pkg/util/resource.go AddPodRequest; the
// rule is applied per Pod here, as its comment states it). Entries that sum to zero are left
// out, as Karmada's ResourceList() does.
import { getPath, isMap } from '../../core/model/kube-object.js';
import { parseQuantity } from '../../core/model/parse-quantity.js';

type Totals = Map<string, bigint>;

export interface NodeSummary {
  totalNum: number;
  readyNum: number;
}

/** Returns the number of nodes and of Ready nodes. */
export function summarizeNodes(nodes: readonly unknown[]): NodeSummary {
  const ready = nodes.filter((node) => {
    const conditions = getPath(node, ['status', 'conditions']);
    return (
      Array.isArray(conditions) &&
      conditions.some((c) => getPath(c, ['type']) === 'Ready' && getPath(c, ['status']) === 'True')
    );
  });
  return { totalNum: nodes.length, readyNum: ready.length };
}

/** Returns allocatable, allocating and allocated resources as quantity strings (empty lists omitted). */
export function summarizeResources(
  nodes: readonly unknown[],
  pods: readonly unknown[],
): {
  allocatable?: Record<string, string>;
  allocating?: Record<string, string>;
  allocated?: Record<string, string>;
} {
  const allocatable: Totals = new Map();
  for (const node of nodes) add(allocatable, getPath(node, ['status', 'allocatable']));
  const allocating: Totals = new Map();
  const allocated: Totals = new Map();
  let pending = 0n;
  let bound = 0n;
  for (const pod of pods) {
    const nodeName = getPath(pod, ['spec', 'nodeName']);
    const phase = getPath(pod, ['status', 'phase']);
    if (typeof nodeName !== 'string' || nodeName === '') {
      addTotals(allocating, podRequest(pod));
      pending++;
    } else if (phase !== 'Succeeded' && phase !== 'Failed') {
      addTotals(allocated, podRequest(pod));
      bound++;
    }
  }
  allocating.set('pods', (allocating.get('pods') ?? 0n) + pending * 1_000_000_000n);
  allocated.set('pods', (allocated.get('pods') ?? 0n) + bound * 1_000_000_000n);
  return {
    ...optional('allocatable', format(allocatable)),
    ...optional('allocating', format(allocating)),
    ...optional('allocated', format(allocated)),
  };
}

function optional<K extends string>(
  key: K,
  list: Record<string, string>,
): Partial<Record<K, Record<string, string>>> {
  return Object.keys(list).length === 0 ? {} : ({ [key]: list } as Record<K, Record<string, string>>);
}

function podRequest(pod: unknown): Totals {
  const sum: Totals = new Map();
  for (const c of listAt(pod, ['spec', 'containers'])) add(sum, getPath(c, ['resources', 'requests']));
  for (const c of listAt(pod, ['spec', 'initContainers'])) {
    const init: Totals = new Map();
    add(init, getPath(c, ['resources', 'requests']));
    for (const [name, value] of init) if (value > (sum.get(name) ?? 0n)) sum.set(name, value);
  }
  add(sum, getPath(pod, ['spec', 'overhead']));
  return sum;
}

function listAt(value: unknown, path: string[]): unknown[] {
  const list = getPath(value, path);
  return Array.isArray(list) ? list : [];
}

function add(totals: Totals, list: unknown): void {
  if (!isMap(list)) return;
  for (const [name, text] of Object.entries(list)) {
    const nano = parseQuantity(text);
    if (nano !== undefined) totals.set(name, (totals.get(name) ?? 0n) + nano);
  }
}

function addTotals(into: Totals, from: Totals): void {
  for (const [name, value] of from) into.set(name, (into.get(name) ?? 0n) + value);
}

/** Formats nano-unit totals the way Kubernetes prints them: CPU in cores or millicores, bytes in binary units. */
function format(totals: Totals): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...totals.keys()].sort()) {
    const nano = totals.get(name)!;
    if (nano <= 0n) continue;
    out[name] =
      name === 'cpu' ? formatMilli(nano) : isBytes(name) ? formatBinary(ceil(nano)) : String(ceil(nano));
  }
  return out;
}

function isBytes(name: string): boolean {
  return name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-');
}

function ceil(nano: bigint): bigint {
  return (nano + 999_999_999n) / 1_000_000_000n;
}

function formatMilli(nano: bigint): string {
  const milli = (nano + 999_999n) / 1_000_000n;
  return milli % 1000n === 0n ? String(milli / 1000n) : `${milli}m`;
}

function formatBinary(bytes: bigint): string {
  const suffixes = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
  let value = bytes;
  let at = -1;
  while (at < suffixes.length - 1 && value !== 0n && value % 1024n === 0n) {
    value /= 1024n;
    at++;
  }
  return at < 0 ? String(value) : `${value}${suffixes[at]}`;
}
