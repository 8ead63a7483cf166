// The exported EndpointSlices on a status branch (multi-cluster services): what the agent of an
// exporting cluster collects from the EndpointSlices of every Service a ServiceExport names, and
// how the hub reads them back.
//
// As Karmada's service-export controller (pkg/controllers/mcs/service_export_controller.go): the
// slices of a Service are those labelled `kubernetes.io/service-name=<service>` in its namespace,
// and a slice managed by Karmada itself (endpointslice.kubernetes.io/managed-by naming its
// endpointslice or endpointslice-dispatch controller, pkg/util/helper/mcs.go) is an imported one
// and is never reported again. Only what a consumer needs is kept (address type, endpoints with
// their addresses and ready/serving/terminating conditions, ports), sorted, so an unchanged slice
// is unchanged text and makes no status commit.
import yaml from 'js-yaml';
import { emitYaml } from '../format/emit-yaml.js';
import { isMap, type KubeObject } from '../model/kube-object.js';
import type { ExportedEndpoint, ExportedPort, ExportedSlice } from '../model/exported-slice.js';

/** The folder of the exported slices on a status branch: `exports/<namespace>/<service>/<slice>.yaml`. */
export const exportsDir = 'exports/';
/** The label naming an EndpointSlice's Service (discovery.k8s.io/v1). */
export const serviceNameLabel = 'kubernetes.io/service-name';
/** The label naming an EndpointSlice's manager (discovery.k8s.io/v1). */
export const managedByLabel = 'endpointslice.kubernetes.io/managed-by';
/** The managers of the slices Karmada (and gitfleet, after it) writes into member clusters. */
export const karmadaSliceManagers: readonly string[] = [
  'endpointslice-controller.karmada.io',
  'endpointslice-dispatch-controller.karmada.io',
];

const apiVersion = 'gitfleet.io/v1alpha1';
const kind = 'ExportedEndpointSlice';

/** An exported slice's file that was refused: which cluster, which file, and why. */
export interface ExportProblem {
  cluster: string;
  path: string;
  message: string;
}

/** Returns whether an EndpointSlice was written by Karmada's (or gitfleet's) import side. */
export function isManagedByKarmada(slice: KubeObject): boolean {
  const manager = slice.metadata.labels?.[managedByLabel];
  return manager !== undefined && karmadaSliceManagers.includes(manager);
}

/**
 * Returns what a consumer needs of an EndpointSlice of an exported Service, canonical, or
 * undefined when the slice is not one to export (no service-name label, or managed by Karmada).
 */
export function exportedSliceOf(cluster: string, slice: KubeObject): ExportedSlice | undefined {
  const service = slice.metadata.labels?.[serviceNameLabel];
  if (service === undefined || isManagedByKarmada(slice)) return undefined;
  return canonicalSlice({
    cluster,
    namespace: slice.metadata.namespace ?? '',
    service,
    name: slice.metadata.name,
    addressType: typeof slice.addressType === 'string' ? slice.addressType : '',
    endpoints: Array.isArray(slice.endpoints) ? slice.endpoints.flatMap((e) => endpointOf(e) ?? []) : [],
    ports: Array.isArray(slice.ports) ? slice.ports.flatMap((p) => portOf(p) ?? []) : [],
  });
}

/** Returns the slice with its endpoints sorted by first address and its ports by name, then port. */
export function canonicalSlice(slice: ExportedSlice): ExportedSlice {
  return {
    ...slice,
    endpoints: [...slice.endpoints].sort((a, b) => compare(a.addresses[0] ?? '', b.addresses[0] ?? '')),
    ports: [...slice.ports].sort(
      (a, b) => compare(a.name ?? '', b.name ?? '') || (a.port ?? 0) - (b.port ?? 0),
    ),
  };
}

/** Returns the path of a slice's file on the status branch. */
export function exportPath(slice: Pick<ExportedSlice, 'namespace' | 'service' | 'name'>): string {
  return `${exportsDir}${slice.namespace}/${slice.service}/${slice.name}.yaml`;
}

/** Returns the files of the exported slices, path → canonical YAML. */
export function exportedSliceFiles(slices: readonly ExportedSlice[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const slice of slices) files.set(exportPath(slice), emitYaml(sliceDocument(canonicalSlice(slice))));
  return files;
}

function sliceDocument(slice: ExportedSlice): Record<string, unknown> {
  return {
    apiVersion,
    kind,
    metadata: {
      namespace: slice.namespace,
      name: slice.name,
      labels: { [serviceNameLabel]: slice.service },
    },
    addressType: slice.addressType,
    endpoints: slice.endpoints,
    ports: slice.ports,
  };
}

/**
 * Returns the exported slices in a status branch's files (those under `exports/`), sorted by
 * path. A file that does not parse is refused and named (cluster, path, reason); the cluster's
 * other slices, and other clusters', are unaffected.
 */
export function parseExportedSlices(
  cluster: string,
  files: ReadonlyMap<string, string>,
): { slices: ExportedSlice[]; problems: ExportProblem[] } {
  const slices: ExportedSlice[] = [];
  const problems: ExportProblem[] = [];
  const paths = [...files.keys()].filter((p) => p.startsWith(exportsDir)).sort(compare);
  for (const path of paths) {
    const parsed = parseSliceFile(cluster, path, files.get(path) ?? '');
    if (typeof parsed === 'string') problems.push({ cluster, path, message: parsed });
    else slices.push(parsed);
  }
  return { slices, problems };
}

/** Returns the slice in one file, or why it is refused. */
function parseSliceFile(cluster: string, path: string, text: string): ExportedSlice | string {
  const parts = path.slice(exportsDir.length).split('/');
  if (parts.length !== 3 || !parts[2]!.endsWith('.yaml'))
    return `not an exported slice's path (expected ${exportsDir}<namespace>/<service>/<slice>.yaml)`;
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch (error) {
    return `not YAML: ${(error as Error).message.split('\n')[0]}`;
  }
  if (!isMap(doc)) return 'not a map';
  if (doc.apiVersion !== apiVersion || doc.kind !== kind)
    return `expected apiVersion ${apiVersion} and kind ${kind}`;
  const meta = doc.metadata;
  if (!isMap(meta) || typeof meta.namespace !== 'string' || typeof meta.name !== 'string')
    return 'metadata.namespace and metadata.name must be strings';
  const service = isMap(meta.labels) ? meta.labels[serviceNameLabel] : undefined;
  if (typeof service !== 'string') return `metadata.labels.${serviceNameLabel} must be a string`;
  const [namespace, dir, file] = parts as [string, string, string];
  if (namespace !== meta.namespace || dir !== service || file !== `${meta.name}.yaml`)
    return `the path does not match the slice (${exportPath({ namespace: meta.namespace, service, name: meta.name })})`;
  if (typeof doc.addressType !== 'string') return 'addressType must be a string';
  if (!Array.isArray(doc.endpoints)) return 'endpoints must be a list';
  if (!Array.isArray(doc.ports)) return 'ports must be a list';
  const endpoints: ExportedEndpoint[] = [];
  for (const [i, value] of doc.endpoints.entries()) {
    const endpoint = endpointOf(value);
    if (!endpoint) return `endpoints[${i}]: needs addresses (strings) and conditions (booleans)`;
    endpoints.push(endpoint);
  }
  const ports: ExportedPort[] = [];
  for (const [i, value] of doc.ports.entries()) {
    const port = portOf(value);
    if (!port) return `ports[${i}]: name, protocol and appProtocol must be strings, port an integer`;
    ports.push(port);
  }
  return canonicalSlice({
    cluster,
    namespace,
    service,
    name: meta.name,
    addressType: doc.addressType,
    endpoints,
    ports,
  });
}

/** Returns an endpoint's addresses and conditions, or undefined when malformed. */
function endpointOf(value: unknown): ExportedEndpoint | undefined {
  if (!isMap(value) || !Array.isArray(value.addresses) || value.addresses.length === 0) return undefined;
  if (!value.addresses.every((a) => typeof a === 'string')) return undefined;
  const raw = value.conditions ?? {};
  if (!isMap(raw)) return undefined;
  const conditions: ExportedEndpoint['conditions'] = {};
  for (const key of ['ready', 'serving', 'terminating'] as const) {
    const flag = raw[key];
    if (flag === undefined || flag === null) continue;
    if (typeof flag !== 'boolean') return undefined;
    conditions[key] = flag;
  }
  return { addresses: [...(value.addresses as string[])], conditions };
}

/** Returns a port's name, port, protocol and appProtocol, or undefined when malformed. */
function portOf(value: unknown): ExportedPort | undefined {
  if (!isMap(value)) return undefined;
  const port: ExportedPort = {};
  for (const key of ['name', 'protocol', 'appProtocol'] as const) {
    const v = value[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') return undefined;
    port[key] = v;
  }
  if (value.port !== undefined && value.port !== null) {
    if (typeof value.port !== 'number' || !Number.isInteger(value.port)) return undefined;
    port.port = value.port;
  }
  return port;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
