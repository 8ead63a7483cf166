// The text of `gitfleet status` by default: the clusters' summary, what is wrong with the clusters
// that are not Ready, and the templates' summary (fleet-summary.ts), in kubectl's aligned columns.
import type { CommitDistance } from './fleet-status-data.js';
import type { ClusterSummary, TemplateSummary } from './fleet-summary.js';
import { columns } from './text-columns.js';

const clusterHeaders = [
  'CLUSTER',
  'READY',
  'RENDERED',
  'APPLIED',
  'BEHIND',
  'OBJECTS',
  'HEALTHY',
  'PROGRESSING',
  'DEGRADED',
  'UNKNOWN',
  'FAILED',
  'REPORTED',
];

const templateHeaders = ['TEMPLATE', 'CLUSTERS', 'REPLICAS', 'HEALTH', 'HEALTHY', 'MESSAGE'];

/** How many clusters' replicas the REPLICAS column names before it says how many more there are. */
const replicasShown = 3;

/**
 * Returns the clusters' table, then one line per cluster that says why it is not Ready (its
 * status branch does not read, the monitor judged it, it never reported), or 'no clusters'.
 */
export function formatClusterSummaries(clusters: readonly ClusterSummary[]): string {
  if (clusters.length === 0) return 'no clusters';
  const rows = clusters.map((c) => [
    c.cluster,
    c.ready,
    short(c.renderedCommit),
    short(c.appliedCommit ?? undefined),
    formatBehind(c.behind),
    String(c.objects.total),
    String(c.objects.healthy),
    String(c.objects.progressing),
    String(c.objects.degraded),
    String(c.objects.unknown),
    String(c.objects.failed),
    c.reportAgeSeconds === undefined ? '-' : formatAge(c.reportAgeSeconds),
  ]);
  const notes = clusters
    .filter((c) => c.ready !== 'True' && c.readyMessage !== undefined)
    .map(
      (c) => `${c.cluster}: ${c.ready === 'Unreadable' ? 'status branch unreadable: ' : ''}${c.readyMessage}`,
    );
  return [columns([clusterHeaders, ...rows]), ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}

/** Returns the templates' table, or 'no templates'. */
export function formatTemplateSummaries(templates: readonly TemplateSummary[]): string {
  if (templates.length === 0) return 'no templates';
  const rows = templates.map((t) => [
    t.template,
    String(t.clusters),
    formatReplicas(t),
    t.health,
    `${t.counts.healthy}/${t.clusters}`,
    t.message ?? '',
  ]);
  return columns([templateHeaders, ...rows]);
}

/** Returns the BEHIND cell: the count, `>N` past the walk's bound, `?` off the branch, `-` for none. */
export function formatBehind(behind: CommitDistance | undefined): string {
  if (!behind) return '-';
  switch (behind.type) {
    case 'Behind':
      return String(behind.commits);
    case 'AtLeast':
      return `>${behind.commits}`;
    case 'NotOnBranch':
      return '?';
    case 'NeverApplied':
      return '-';
  }
}

/** Returns an age as kubectl prints one: `45s`, `12m`, `5h`, `3d`. */
export function formatAge(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 2 * 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 48 * 3600) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86400)}d`;
}

// The REPLICAS cell: `-` without replicas; the desired count alone when placed nowhere;
// `2 on m1` on one cluster; `2 each on 3 clusters` when every cluster runs the desired count
// (Duplicated: each cluster runs them all); else the division, `6 (m1:3 m2:2 m3:1)`, the first
// few clusters by name and `+N` for the rest (Divided).
function formatReplicas(t: TemplateSummary): string {
  if (t.replicas === 0) return '-';
  if (t.placement.length === 0) return String(t.replicas);
  if (t.placement.length === 1) return `${t.replicas} on ${t.placement[0]!.cluster}`;
  if (t.placement.every((p) => p.replicas === t.replicas))
    return `${t.replicas} each on ${t.placement.length} clusters`;
  const placed = t.placement.map((p) => `${p.cluster}:${p.replicas ?? 0}`);
  const more = placed.length > replicasShown ? ` +${placed.length - replicasShown}` : '';
  return `${t.replicas} (${placed.slice(0, replicasShown).join(' ')}${more})`;
}

function short(commit: string | undefined): string {
  return commit === undefined ? '-' : commit.slice(0, 7);
}
