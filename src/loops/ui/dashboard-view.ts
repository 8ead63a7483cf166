// The dashboard's two overview documents, shaped from what `gitfleet status` computes: the rows
// of core/status/status-table.ts (placement, applied, health per template × cluster, judged as
// the hub aggregates the agents' reports) and the agents' cluster status. Nothing here judges
// health itself. The matrix goes to the browser as one character per cell, so 2,000 templates
// × 50 clusters is 100,000 bytes, not 100,000 JSON objects.
import type { HealthStatus } from '../../core/health/health.js';
import type { ObjectRef } from '../../core/model/object-ref.js';
import { refLabel } from '../../core/model/object-ref.js';
import { statusTable, type StatusRow } from '../../core/status/status-table.js';
import type { HubBranches } from './read-hub-branches.js';

/** One cell of the matrix: a letter per health, upper case when placed, lower case when only reported. */
export type CellCode = '.' | 'H' | 'P' | 'D' | 'U' | 'F' | 'h' | 'p' | 'd' | 'u' | 'f' | 'X';

/** One cluster as the clusters page shows it. */
export interface ClusterCard {
  name: string;
  /** False when its status branch does not parse: everything else is unknown. */
  readable: boolean;
  /** Whether its agent has reported at all. */
  reported: boolean;
  ready: 'True' | 'False' | 'Unknown';
  readyMessage?: string;
  version?: string;
  nodes?: { total: number; ready: number };
  allocatable?: Record<string, string>;
  renderedCommit: string | null;
  appliedCommit: string | null;
  /** The agent applied an older rendering than the cluster branch's head. */
  behind: boolean;
  counts: Record<HealthStatus | 'failed', number>;
}

/** The templates × clusters matrix, columns in `clusters` order, rows in `templates` order. */
export interface MatrixView {
  clusters: string[];
  templates: {
    label: string;
    key: string;
    kind: string;
    namespace: string;
    name: string;
    labels: Record<string, string>;
  }[];
  /** Row-major, one CellCode per template × cluster. */
  cells: string;
}

const letters: Record<HealthStatus, string> = { Healthy: 'H', Progressing: 'P', Degraded: 'D', Unknown: 'U' };

/** Returns the status rows of every template × cluster (core/status/status-table.ts). */
export function statusRowsOf(hub: HubBranches): StatusRow[] {
  return statusTable({
    bindings: hub.bindings,
    reports: hub.reports,
    clusters: [...new Set([...hub.heads.keys(), ...hub.unreadable])],
    renderedCommitOf: (cluster) => hub.heads.get(cluster),
  });
}

/** The facts of a reading a cell depends on beyond its row. */
export interface CellContext {
  unreadable: ReadonlySet<string>;
  /** `cluster template-label` of every object an agent reports it could not apply. */
  failed: ReadonlySet<string>;
}

/** Returns the clusters that cannot be read and the objects whose apply failed, for cellOf. */
export function cellContextOf(hub: HubBranches): CellContext {
  const failed = new Set<string>();
  for (const [cluster, report] of hub.reports)
    for (const o of report.objects)
      if (!o.applied && o.message !== undefined) failed.add(`${cluster} ${refLabel(o.ref)}`);
  return { unreadable: new Set(hub.unreadable), failed };
}

/**
 * Returns the cell code of one status row: X for a cluster whose report is unreadable, F where
 * the agent reports the apply failed, else the health letter (Unknown while not yet applied).
 */
export function cellOf(row: StatusRow, ctx: CellContext): CellCode {
  if (ctx.unreadable.has(row.cluster)) return 'X';
  if (row.health === undefined) return '.';
  const letter = ctx.failed.has(`${row.cluster} ${row.template}`) ? 'F' : letters[row.health];
  return (row.placed ? letter : letter.toLowerCase()) as CellCode;
}

/** Returns the matrix of the rows, with each template's labels from the source (none when unknown). */
export function matrixOf(
  hub: HubBranches,
  rows: readonly StatusRow[],
  labelsOf: (key: string) => Record<string, string>,
): MatrixView {
  const clusters = [...new Set(rows.map((r) => r.cluster))].sort();
  const refs = new Map<string, { ref: ObjectRef; key: string }>();
  for (const b of hub.bindings) refs.set(refLabel(b.resource), { ref: b.resource, key: b.key });
  const ctx = cellContextOf(hub);
  const labels: string[] = [];
  const cells: string[] = [];
  for (const row of rows) {
    if (labels[labels.length - 1] !== row.template) labels.push(row.template);
    cells.push(cellOf(row, ctx));
  }
  const templates = labels.map((label) => {
    const found = refs.get(label);
    const ref = found?.ref;
    return {
      label,
      key: found?.key ?? label,
      kind: ref?.kind ?? '',
      namespace: ref?.namespace ?? '',
      name: ref?.name ?? label,
      labels: labelsOf(found?.key ?? ''),
    };
  });
  return { clusters, templates, cells: cells.join('') };
}

/** Returns one card per cluster: its own status from its agent, and health counts from the rows. */
export function clusterCardsOf(hub: HubBranches, rows: readonly StatusRow[]): ClusterCard[] {
  const names = [...new Set([...rows.map((r) => r.cluster), ...hub.heads.keys(), ...hub.unreadable])].sort();
  const ctx = cellContextOf(hub);
  return names.map((name) => {
    const report = hub.reports.get(name);
    const status = report?.clusterStatus;
    const ready = status?.conditions?.find((c) => c.type === 'Ready');
    const counts = { Healthy: 0, Progressing: 0, Degraded: 0, Unknown: 0, failed: 0 };
    for (const row of rows) {
      if (row.cluster !== name || !row.placed || row.health === undefined) continue;
      if (ctx.failed.has(`${name} ${row.template}`)) counts.failed++;
      else counts[row.health]++;
    }
    const renderedCommit = hub.heads.get(name) ?? null;
    const appliedCommit = report?.appliedCommit ?? null;
    return {
      name,
      readable: !hub.unreadable.includes(name),
      reported: report !== undefined,
      ready: ready?.status ?? 'Unknown',
      ...(ready?.message !== undefined ? { readyMessage: ready.message } : {}),
      ...(status?.kubernetesVersion !== undefined ? { version: status.kubernetesVersion } : {}),
      ...(status?.nodeSummary
        ? { nodes: { total: status.nodeSummary.totalNum, ready: status.nodeSummary.readyNum } }
        : {}),
      ...(status?.resourceSummary?.allocatable ? { allocatable: status.resourceSummary.allocatable } : {}),
      renderedCommit,
      appliedCommit,
      behind: report !== undefined && renderedCommit !== null && appliedCommit !== renderedCommit,
      counts,
    };
  });
}
