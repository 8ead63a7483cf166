import yaml from 'js-yaml';
import type { ClusterStatus } from '../model/cluster.js';
import { isMap } from '../model/kube-object.js';
import type { ObjectRef } from '../model/object-ref.js';
import { healthStatuses, type HealthStatus } from '../health/health.js';
import { emitYaml } from '../format/emit-yaml.js';
import { objectPath } from '../format/object-path.js';
import { parseClusterStatus } from './parse-cluster-status.js';
import { parseConditions, type StatusCondition } from './parse-conditions.js';
import type { ExportedSlice } from '../model/exported-slice.js';
import { exportedSliceFiles, parseExportedSlices, type ExportProblem } from './exported-slices.js';

/**
 * The layout of a `gitfleet/status/<cluster>` branch, written by that cluster's agent only:
 *
 * ```
 * cluster.yaml                                     the cluster's own status and the agent's
 *                                                  kind: AgentReport, metadata.name: <cluster>,
 *                                                  appliedCommit (the cluster-branch commit fully
 *                                                  applied, or null), clusterStatus (Karmada's
 *                                                  ClusterStatus), conditions (the agent's own)
 * objects/<namespace>/<Kind>[.<group>]/<name>.yaml one file per object of the cluster branch
 * objects/_cluster/<Kind>[.<group>]/<name>.yaml    (the same paths as the cluster branch), kind
 *                                                  ObjectStatus: resource (apiVersion, kind,
 *                                                  namespace, name), applied, message, health,
 *                                                  healthMessage, status (Karmada's reflected
 *                                                  status fields)
 * exports/<namespace>/<service>/<slice>.yaml       one file per EndpointSlice of a Service a
 *                                                  ServiceExport of the cluster branch names, kind
 *                                                  ExportedEndpointSlice (exported-slices.ts)
 * ```
 *
 * Everything is canonical YAML with no timestamps (conditions carry no lastTransitionTime), so
 * an unchanged report is an unchanged tree and the agent writes no commit. Each status commit
 * also names the cluster-branch commit it reports on in the trailer `Gitfleet-Applied-Commit`.
 */
export const appliedCommitTrailer = 'Gitfleet-Applied-Commit';

/**
 * The trailer of a bindings commit naming a status branch head the hub aggregated into the
 * binding records: `<cluster>=<commit>` (written by loops/hub, read by the status views).
 */
export const statusCommitTrailer = 'Gitfleet-Status-Commit';

export const clusterFile = 'cluster.yaml';
export const objectsDir = 'objects/';
const apiVersion = 'gitfleet.io/v1alpha1';

/** What the agent knows about one object of its cluster branch. */
export interface ObjectStatusRecord {
  ref: ObjectRef;
  /** False when the apply failed (then `message` says why) or has not happened. */
  applied: boolean;
  message?: string;
  health: HealthStatus;
  healthMessage?: string;
  /** The status fields Karmada reflects (reflectStatus). */
  status?: Record<string, unknown>;
}

/** Everything an agent reports about its cluster: the contents of its status branch. */
export interface AgentReport {
  cluster: string;
  /** The cluster-branch commit fully applied, or null before the first complete apply. */
  appliedCommit: string | null;
  clusterStatus?: ClusterStatus;
  objects: ObjectStatusRecord[];
  conditions?: StatusCondition[];
  /** The EndpointSlices of the exported Services (multi-cluster services), when there are any. */
  exports?: ExportedSlice[];
  /** The exported slices' files that were refused, when reading a branch (never written). */
  exportProblems?: ExportProblem[];
}

/** Returns the files of a status branch for a report, path → canonical YAML, sorted by path. */
export function statusBranchFiles(report: AgentReport): Map<string, string> {
  const entries: [string, string][] = [[clusterFile, emitYaml(clusterDocument(report))]];
  for (const record of report.objects) entries.push(objectStatusFile(record));
  entries.push(...exportedSliceFiles(report.exports ?? []));
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(entries);
}

/** Returns the path and canonical YAML of one object's file on a status branch. */
export function objectStatusFile(record: ObjectStatusRecord): [string, string] {
  return [objectsDir + objectPath(record.ref), emitYaml(objectDocument(record))];
}

function clusterDocument(report: AgentReport): Record<string, unknown> {
  return {
    apiVersion,
    kind: 'AgentReport',
    metadata: { name: report.cluster },
    appliedCommit: report.appliedCommit,
    clusterStatus: report.clusterStatus,
    conditions: report.conditions,
  };
}

function objectDocument(record: ObjectStatusRecord): Record<string, unknown> {
  const { ref } = record;
  return {
    apiVersion,
    kind: 'ObjectStatus',
    resource: {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      ...(ref.namespace ? { namespace: ref.namespace } : {}),
      name: ref.name,
    },
    applied: record.applied,
    message: record.message,
    health: record.health,
    healthMessage: record.healthMessage,
    status: record.status,
  };
}

/**
 * Returns the report in a status branch's files, objects sorted by path, or undefined when
 * `cluster.yaml` is missing or unreadable. Object files that do not parse are skipped: a reader
 * of status never fails on one bad file. Exported slices' files that do not parse are skipped
 * too, and named in `exportProblems`.
 */
export function parseStatusBranch(files: ReadonlyMap<string, string>): AgentReport | undefined {
  const objects = [...files.keys()]
    .filter(isObjectStatusPath)
    .map((path) => ({ path, record: parseObjectStatusFile(files.get(path)!) }));
  return assembleStatusBranch(files, objects);
}

/** Whether a status-branch path holds one object's record (`objects/…/<name>.yaml`). */
export function isObjectStatusPath(path: string): boolean {
  return path.startsWith(objectsDir) && path.endsWith('.yaml');
}

/** Returns the record an object file of a status branch holds, or undefined when it holds none. */
export function parseObjectStatusFile(text: string): ObjectStatusRecord | undefined {
  return parseObjectRecord(loadYaml(text));
}

/**
 * Returns what parseStatusBranch returns, from the branch's other files (`cluster.yaml`, the
 * exported slices) and its object files already parsed (parseObjectStatusFile): for a reader
 * that keeps parsed records by blob id between reads.
 */
export function assembleStatusBranch(
  files: ReadonlyMap<string, string>,
  objects: readonly { path: string; record: ObjectStatusRecord | undefined }[],
): AgentReport | undefined {
  const cluster = loadYaml(files.get(clusterFile));
  if (!isMap(cluster) || !isMap(cluster.metadata) || typeof cluster.metadata.name !== 'string')
    return undefined;
  const report: AgentReport = {
    cluster: cluster.metadata.name,
    appliedCommit: typeof cluster.appliedCommit === 'string' ? cluster.appliedCommit : null,
    objects: [],
  };
  const clusterStatus = parseClusterStatus(cluster.clusterStatus);
  if (clusterStatus) report.clusterStatus = clusterStatus;
  if (Array.isArray(cluster.conditions)) report.conditions = parseConditions(cluster.conditions);
  const sorted = [...objects].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const { record } of sorted) if (record) report.objects.push(record);
  const exported = parseExportedSlices(report.cluster, files);
  if (exported.slices.length > 0) report.exports = exported.slices;
  if (exported.problems.length > 0) report.exportProblems = exported.problems;
  return report;
}

/**
 * Returns why a status branch's files hold no report (what makes parseStatusBranch return
 * undefined), or undefined when they hold one: for a reader that shows the cluster as unreadable.
 */
export function statusBranchProblem(files: ReadonlyMap<string, string>): string | undefined {
  const text = files.get(clusterFile);
  if (text === undefined) return `no ${clusterFile}`;
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n', 1)[0] : String(error);
    return `${clusterFile} is not YAML: ${reason}`;
  }
  if (!isMap(doc) || !isMap(doc.metadata) || typeof doc.metadata.name !== 'string')
    return `${clusterFile} is not an AgentReport: it has no metadata.name`;
  return undefined;
}

function parseObjectRecord(doc: unknown): ObjectStatusRecord | undefined {
  if (!isMap(doc) || !isMap(doc.resource) || typeof doc.applied !== 'boolean') return undefined;
  const r = doc.resource;
  if (typeof r.apiVersion !== 'string' || typeof r.kind !== 'string' || typeof r.name !== 'string')
    return undefined;
  const ref: ObjectRef = {
    apiVersion: r.apiVersion,
    kind: r.kind,
    namespace: typeof r.namespace === 'string' ? r.namespace : '',
    name: r.name,
  };
  const health = healthStatuses.find((h) => h === doc.health) ?? 'Unknown';
  return {
    ref,
    applied: doc.applied,
    ...(typeof doc.message === 'string' ? { message: doc.message } : {}),
    health,
    ...(typeof doc.healthMessage === 'string' ? { healthMessage: doc.healthMessage } : {}),
    ...(isMap(doc.status) ? { status: doc.status } : {}),
  };
}

function loadYaml(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
}
