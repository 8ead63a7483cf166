// The refused mass deletions `gitfleet status` shows (docs/status.md#refused-deletions): the
// hub's, which its bindings head records (core/publish/refusal-trailers.ts), and each agent's,
// which its report carries as the condition Pruned=False, reason MassDeletionGuard. Both are
// still pending: the hub judges the update again every pass, the agent its prune.
import type { RefusedDeletion } from '../publish/refusal-trailers.js';
import type { AgentReport } from './status-branch.js';
import { columns } from './text-columns.js';

/** A refused mass deletion on a cluster, and who refused it: the hub (its branch) or its agent (the prune). */
export interface RefusedDeletionView {
  cluster: string;
  by: 'hub' | 'agent';
  message: string;
}

/** Returns every refusal, by cluster name, the hub's before the agent's on the same cluster. */
export function refusedDeletionsOf(
  hub: readonly RefusedDeletion[],
  reports: ReadonlyMap<string, AgentReport>,
): RefusedDeletionView[] {
  const views: RefusedDeletionView[] = hub.map((r) => ({
    cluster: r.cluster,
    by: 'hub',
    message: r.message,
  }));
  for (const [cluster, report] of reports) {
    const pruned = report.conditions?.find((c) => c.type === 'Pruned');
    if (pruned?.status === 'False' && pruned.reason === 'MassDeletionGuard')
      views.push({ cluster, by: 'agent', message: pruned.message ?? 'refused by the mass-deletion guard' });
  }
  return views.sort((a, b) =>
    a.cluster !== b.cluster ? (a.cluster < b.cluster ? -1 : 1) : a.by < b.by ? 1 : a.by > b.by ? -1 : 0,
  );
}

/** Returns the section of the refused deletions, '' when there is none. */
export function formatRefusedDeletions(views: readonly RefusedDeletionView[]): string {
  if (views.length === 0) return '';
  const rows = views.map((v) => ['', v.cluster, v.by, v.message]);
  return `Refused deletions (still pending)\n${columns([['', 'CLUSTER', 'BY', 'MESSAGE'], ...rows])}`;
}
