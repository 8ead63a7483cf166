// The `kube` library a script gets with `local kube = require("kube")`: the four functions of
// Karmada's VM (pkg/resourceinterpreter/customized/declarative/luavm/kube.go), written here:
//
// | function                                   | returns                                                  |
// |--------------------------------------------|----------------------------------------------------------|
// | resourceAdd(q1, q2, ...)                   | the sum of quantity strings (nil counts as zero), as Quantity.String() |
// | getResourceQuantity(q)                     | a quantity string as a number (e.g. "1500m" → 1.5)        |
// | accuratePodRequirements(podTemplate)       | the ReplicaRequirements of a pod template: nodeClaim      |
// |                                            | (nodeSelector, tolerations, hardNodeAffinity) and         |
// |                                            | resourceRequest, or nil when it has neither               |
// | getPodDependencies(podTemplate, namespace) | the ConfigMaps, Secrets, ServiceAccounts and PVCs the pod |
// |                                            | template refers to, in namespace (nil: "default"), or nil |
//
// accuratePodRequirements sums as Karmada's Resource.AddPodTemplateRequest (pkg/util/resource.go):
// a container's limits stand in for the requests it leaves out; containers add up, init
// containers count by their maximum, overhead is added; cpu is counted in millicores, every
// other resource in whole units rounded up; only cpu, memory, pods, ephemeral-storage and
// scalar resources (names with a '/', hugepages-*, attachable-volumes-*) are counted, and
// ResourceList prints memory, ephemeral-storage and hugepages in BinarySI, the rest in DecimalSI.
import { podSpecReferences } from '../../core/follow/pod-spec-references.js';
import { approximateQuantity, formatQuantity, readQuantity, type Quantity } from './kube-quantity.js';
import { EMPTY_TABLE, type LuaValue } from './lua-values.js';
import { LuaError } from './lua-error.js';

/** A kube function: Lua arguments in, Lua results out; throws an Error for a Lua error. */
export type KubeFunction = (args: LuaValue[]) => unknown[];

/** The kube library's functions by name. */
export const kubeLibrary: Readonly<Record<string, KubeFunction>> = {
  resourceAdd(args) {
    let sum: Quantity = { nano: 0n, format: '' };
    args.forEach((arg, i) => {
      const q = quantityArgument(arg, i + 1);
      sum = { nano: sum.nano + q.nano, format: sum.nano === 0n ? q.format : sum.format };
    });
    return [formatQuantity(sum)];
  },
  getResourceQuantity(args) {
    if (args.length !== 1)
      throw new LuaError('LuaBadArgument', 'getResourceQuantity only accepts one argument');
    const value = approximateQuantity(quantityArgument(args[0]!, 1));
    if (value < 0)
      throw new LuaError('LuaBadArgument', 'int approximation unexpectedly returned a negative value');
    return [value];
  },
  accuratePodRequirements(args) {
    if (args.length !== 1)
      throw new LuaError('LuaBadArgument', 'accuratePodRequirements only accepts one argument');
    return [podRequirements(tableArgument(args[0]!, 1))];
  },
  getPodDependencies(args) {
    if (args.length !== 2)
      throw new LuaError('LuaBadArgument', 'getPodDependencies only accepts two arguments');
    const template = tableArgument(args[0]!, 1);
    const namespace = args[1] === null ? 'default' : args[1];
    if (typeof namespace !== 'string' && typeof namespace !== 'number')
      throw new LuaError('LuaBadArgument', 'bad argument #2 (string expected)');
    return [podDependencies(template, String(namespace))];
  },
};

function quantityArgument(arg: LuaValue, position: number): Quantity {
  if (arg === null) return { nano: 0n, format: '' };
  if (typeof arg !== 'string')
    throw new LuaError('LuaBadArgument', `bad argument #${position} (string expected, got ${luaType(arg)})`);
  const q = readQuantity(arg);
  if (q === undefined)
    throw new LuaError(
      'LuaBadArgument',
      `bad argument #${position}: ${JSON.stringify(arg)} is not a quantity`,
    );
  return q;
}

function tableArgument(arg: LuaValue, position: number): Record<string, LuaValue> {
  if (arg === EMPTY_TABLE) return {};
  if (arg === null || typeof arg !== 'object' || Array.isArray(arg))
    throw new LuaError('LuaBadArgument', `bad argument #${position} (table expected, got ${luaType(arg)})`);
  return arg;
}

function luaType(arg: LuaValue): string {
  if (arg === null) return 'nil';
  if (typeof arg === 'object' || arg === EMPTY_TABLE) return 'table';
  return typeof arg;
}

function mapAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const child = (value as Record<string, unknown>)[key];
  return child !== null && typeof child === 'object' && !Array.isArray(child)
    ? (child as Record<string, unknown>)
    : undefined;
}

function listAt(value: unknown, key: string): unknown[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const child = (value as Record<string, unknown>)[key];
  return Array.isArray(child) ? child : [];
}

function podRequirements(template: Record<string, LuaValue>): Record<string, unknown> | null {
  const spec = mapAt(template, 'spec') ?? {};
  const nodeClaim = nodeClaimOf(spec);
  const resourceRequest = resourceListOf(podTotals(spec));
  if (nodeClaim === undefined && resourceRequest === undefined) return null;
  return { ...(nodeClaim ? { nodeClaim } : {}), ...(resourceRequest ? { resourceRequest } : {}) };
}

function nodeClaimOf(spec: Record<string, unknown>): Record<string, unknown> | undefined {
  const nodeSelector = mapAt(spec, 'nodeSelector');
  const tolerations = listAt(spec, 'tolerations');
  const hard = mapAt(
    mapAt(mapAt(spec, 'affinity'), 'nodeAffinity'),
    'requiredDuringSchedulingIgnoredDuringExecution',
  );
  if (nodeSelector === undefined && hard === undefined && tolerations.length === 0) return undefined;
  return {
    ...(hard ? { hardNodeAffinity: hard } : {}),
    ...(nodeSelector ? { nodeSelector } : {}),
    ...(tolerations.length > 0 ? { tolerations } : {}),
  };
}

type Totals = Map<string, bigint>;

function podTotals(spec: Record<string, unknown>): Totals {
  const totals: Totals = new Map();
  for (const c of listAt(spec, 'containers')) addInto(totals, containerRequests(c));
  for (const c of listAt(spec, 'initContainers')) maxInto(totals, containerRequests(c));
  addInto(totals, countList(mapAt(spec, 'overhead')));
  return totals;
}

function containerRequests(container: unknown): Totals {
  const resources = mapAt(container, 'resources');
  return countList({ ...(mapAt(resources, 'limits') ?? {}), ...(mapAt(resources, 'requests') ?? {}) });
}

// Each resource as Resource.Add counts it: cpu in millicores, the rest in whole units.
function countList(list: Record<string, unknown> | undefined): Totals {
  const totals: Totals = new Map();
  for (const [name, value] of Object.entries(list ?? {})) {
    if (!isCounted(name)) continue;
    const q =
      typeof value === 'string' || typeof value === 'number' ? readQuantity(String(value)) : undefined;
    if (q === undefined) continue;
    const unit = name === 'cpu' ? 1_000_000n : 1_000_000_000n;
    totals.set(name, ceilDiv(q.nano, unit));
  }
  return totals;
}

function isCounted(name: string): boolean {
  return (
    ['cpu', 'memory', 'pods', 'ephemeral-storage'].includes(name) ||
    name.includes('/') ||
    name.startsWith('hugepages-') ||
    name.startsWith('attachable-volumes-')
  );
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return a >= 0n ? (a + b - 1n) / b : -((-a + b - 1n) / b);
}

function addInto(totals: Totals, more: Totals): void {
  for (const [name, value] of more) totals.set(name, (totals.get(name) ?? 0n) + value);
}

function maxInto(totals: Totals, other: Totals): void {
  for (const [name, value] of other) if (value > (totals.get(name) ?? 0n)) totals.set(name, value);
}

function resourceListOf(totals: Totals): Record<string, string> | undefined {
  const list: Record<string, string> = {};
  for (const [name, value] of [...totals].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (value <= 0n) continue;
    const binary = name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-');
    const nano = name === 'cpu' ? value * 1_000_000n : value * 1_000_000_000n;
    list[name] = formatQuantity({ nano, format: binary ? 'BinarySI' : 'DecimalSI' });
  }
  return Object.keys(list).length > 0 ? list : undefined;
}

function podDependencies(template: Record<string, LuaValue>, namespace: string): unknown[] | null {
  const refs = podSpecReferences(mapAt(template, 'spec') ?? {});
  const of = (kind: string, names: string[]) =>
    [...new Set(names)].sort().map((name) => ({ apiVersion: 'v1', kind, namespace, name }));
  const all = [
    ...of('ConfigMap', refs.configMaps),
    ...of('Secret', refs.secrets),
    ...of('ServiceAccount', refs.serviceAccounts),
    ...of('PersistentVolumeClaim', refs.persistentVolumeClaims),
  ];
  // Karmada returns a nil slice when there are none, which reaches Lua as nil.
  return all.length > 0 ? all : null;
}
