import type { StatusRow } from './status-table.js';

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

/** Returns the status table as aligned text columns, one row per template and cluster. */
export function formatStatusText(rows: readonly StatusRow[]): string {
  if (rows.length === 0) return 'no templates';
  const cells = [headers, ...rows.map(cellsOf)];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
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
