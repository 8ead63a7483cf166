import type { EvictionTaskView } from './eviction-task-view.js';
import type { StatusRow } from './status-table.js';

/** Why workloads moved, as the bindings branch records it: eviction tasks and the monitor's verdicts. */
export interface StatusFailover {
  /** Every eviction task of a shown template's record, templates in table order. */
  evictions: readonly ({ template: string } & EvictionTaskView)[];
  /** The bindings head's Gitfleet-Cluster-Judged values (`member2=Unknown`). */
  judged: readonly string[];
}

const headers = [
  'TEMPLATE',
  'CLUSTER',
  'PLACED',
  'REPLICAS',
  'APPLIED-COMMIT',
  'APPLIED',
  'HEALTH',
  'MESSAGE',
];

const evictionHeaders = ['TEMPLATE', 'EVICTED-FROM', 'REASON', 'PRODUCER', 'PURGE-MODE', 'SINCE', 'MESSAGE'];

/**
 * Returns the status table as aligned text columns, one row per template and cluster; then,
 * when the bindings branch records any, the eviction tasks (a cluster a template was evicted
 * from and still keeps, or is about to lose, its copy) and the clusters the hub's monitor judged.
 */
export function formatStatusText(rows: readonly StatusRow[], failover?: StatusFailover): string {
  if (rows.length === 0) return 'no templates';
  const parts = [columns([headers, ...rows.map(cellsOf)])];
  if (failover && failover.evictions.length > 0) {
    const tasks = failover.evictions.map((t) => [
      t.template,
      t.cluster,
      t.reason ?? '-',
      t.producer ?? '-',
      t.purgeMode ?? '-',
      t.since ?? '-',
      t.message ?? '',
    ]);
    parts.push(columns([evictionHeaders, ...tasks]));
  }
  if (failover && failover.judged.length > 0)
    parts.push(`judged by the hub's cluster monitor: ${failover.judged.join(', ')}`);
  return parts.join('\n\n');
}

function columns(cells: readonly string[][]): string {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function cellsOf(row: StatusRow): string[] {
  return [
    row.template,
    row.cluster,
    row.placed ? 'yes' : 'no',
    row.replicas === undefined ? '-' : String(row.replicas),
    row.appliedCommit ? row.appliedCommit.slice(0, 7) : '-',
    !row.placed && row.health === undefined ? '-' : row.applied ? 'yes' : 'no',
    row.health ?? '-',
    row.message ?? '',
  ];
}
