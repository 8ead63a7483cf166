import type { EvictionTaskView } from './eviction-task-view.js';
import type { StatusRow } from './status-table.js';
import { columns } from './text-columns.js';

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
 * from and still keeps, or is about to lose, its copy), the clusters the hub's monitor judged
 * and the rollouts' section, made by the caller (core/rollout/format-rollout-text.ts).
 */
export function formatStatusText(
  rows: readonly StatusRow[],
  failover?: StatusFailover,
  /** The rollouts' section (formatRolloutSection), '' when there is none. */
  section = '',
): string {
  if (rows.length === 0) return section ? `no templates\n\n${section}` : 'no templates';
  return [
    columns([headers, ...rows.map(cellsOf)]),
    ...formatFailoverSections(failover),
    ...(section ? [section] : []),
  ].join('\n\n');
}

/**
 * Returns the sections on why workloads moved, none when there is nothing to say: the eviction
 * tasks (a cluster a template was evicted from and still keeps, or is about to lose, its copy)
 * and the clusters the hub's monitor judged.
 */
export function formatFailoverSections(failover: StatusFailover | undefined): string[] {
  const parts: string[] = [];
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
  return parts;
}

function cellsOf(row: StatusRow): string[] {
  return [
    row.template,
    row.cluster,
    row.placed ? 'yes' : 'no',
    row.replicas === undefined ? '-' : String(row.replicas),
    row.appliedCommit ? row.appliedCommit.slice(0, 7) : '-',
    row.reason === 'CheckedAtRender'
      ? 'checked'
      : !row.placed && row.health === undefined
        ? '-'
        : row.applied
          ? 'yes'
          : 'no',
    row.reason === 'CheckedAtRender' ? '-' : (row.health ?? '-'),
    row.why ?? row.message ?? '',
  ];
}
