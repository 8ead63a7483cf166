// The dashboard's two overview documents, shaped from what `gitfleet status` computes from the
// same FleetStatusData: the per-cluster summaries (core/status/fleet-summary.ts) and the rows of
// the full matrix (core/status/status-table.ts, as `status --wide --all` prints them). Nothing
// here judges health. The matrix goes to the browser as one character per cell, so 2,000
// templates × 50 clusters is 100,000 bytes, not 100,000 JSON objects.
import type { HealthStatus } from '../../core/health/health.js';
import { refLabel, type ObjectRef } from '../../core/model/object-ref.js';
import type { FleetStatusData } from '../../core/status/fleet-status-data.js';
import { summarizeClusters, type ClusterSummary } from '../../core/status/fleet-summary.js';
import { statusTable, type StatusRow } from '../../core/status/status-table.js';

/** One cell: a letter per health, upper case when placed, lower case when only reported; X unreadable. */
export type CellCode = '.' | 'H' | 'P' | 'D' | 'U' | 'F' | 'h' | 'p' | 'd' | 'u' | 'f' | 'X';

/** One cluster as the clusters page shows it: its summary, the capacity its agent reported, its labels in the fleet repository. */
export type ClusterCard = ClusterSummary & {
  allocatable?: Record<string, string>;
  labels?: Record<string, string>;
};

/** A template as the pages name, link and filter it: its label, refKey, identity and labels (from the source commit). */
export interface TemplateIdentity {
  label: string;
  key: string;
  kind: string;
  namespace: string;
  name: string;
  labels: Record<string, string>;
}

/** The templates × clusters matrix, columns in `clusters` order, rows in `templates` order. */
export interface MatrixView {
  clusters: string[];
  templates: TemplateIdentity[];
  /** Row-major, one CellCode per template × cluster. */
  cells: string;
}

const letters: Record<HealthStatus, string> = { Healthy: 'H', Progressing: 'P', Degraded: 'D', Unknown: 'U' };

/** Returns every template × cluster row, unplaced ones included (status-table.ts). */
export function statusRowsOf(data: FleetStatusData): StatusRow[] {
  return statusTable({
    bindings: data.bindings,
    reports: data.reports,
    clusters: [...new Set([...data.renderedHeads.keys(), ...data.unreadable.keys()])],
    renderedCommitOf: (cluster) => data.renderedHeads.get(cluster),
  });
}

/** The facts of a reading a cell depends on beyond its row. */
export interface CellContext {
  unreadable: ReadonlySet<string>;
  /** `cluster template-label` of every object an agent reports it could not apply. */
  failed: ReadonlySet<string>;
}

/** Returns the clusters that cannot be read and the objects whose apply failed, for cellOf. */
export function cellContextOf(data: FleetStatusData): CellContext {
  const failed = new Set<string>();
  for (const [cluster, report] of data.reports)
    for (const o of report.objects)
      if (!o.applied && o.message !== undefined) failed.add(`${cluster} ${refLabel(o.ref)}`);
  return { unreadable: new Set(data.unreadable.keys()), failed };
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

/** Returns the matrix of the rows, with each template's labels from the source commit. */
export function matrixOf(data: FleetStatusData, rows: readonly StatusRow[]): MatrixView {
  const clusters = [...new Set(rows.map((r) => r.cluster))].sort();
  const refs = new Map<string, { ref: ObjectRef; key: string }>();
  for (const b of data.bindings) refs.set(refLabel(b.resource), { ref: b.resource, key: b.key });
  const ctx = cellContextOf(data);
  const labels: string[] = [];
  const cells: string[] = [];
  for (const row of rows) {
    if (labels[labels.length - 1] !== row.template) labels.push(row.template);
    cells.push(cellOf(row, ctx));
  }
  const templates = labels.map((label) => {
    const found = refs.get(label);
    return {
      label,
      key: found?.key ?? label,
      kind: found?.ref.kind ?? '',
      namespace: found?.ref.namespace ?? '',
      name: found?.ref.name ?? label,
      labels: (found && data.templateLabels.get(found.key)) ?? {},
    };
  });
  return { clusters, templates, cells: cells.join('') };
}

/** Returns one card per cluster: `gitfleet status`'s summary, and the allocatable resources reported. */
export function clusterCardsOf(data: FleetStatusData, now: Date): ClusterCard[] {
  return summarizeClusters(data, now).map((summary) => {
    const allocatable = data.reports.get(summary.cluster)?.clusterStatus?.resourceSummary?.allocatable;
    const labels = data.registrations?.get(summary.cluster)?.labels;
    return { ...summary, ...(allocatable ? { allocatable } : {}), ...(labels ? { labels } : {}) };
  });
}
