// The quotas' section of `gitfleet status` (text): one line per FederatedResourceQuota and
// resource of its overall, with what the placed templates use of it and, for each cluster with
// a static assignment that reported its ResourceQuota, that cluster's used/hard.
import { columns } from './text-columns.js';
import type { QuotaStatusView } from '../model/federated-resource-quota.js';

const headers = ['FEDERATED QUOTA', 'RESOURCE', 'USED', 'OVERALL', 'CLUSTERS (USED/HARD)'];

/** Returns the section, or '' when the bindings branch records no quota. */
export function formatQuotaSection(views: readonly QuotaStatusView[]): string {
  if (views.length === 0) return '';
  const rows = views.flatMap((v) =>
    Object.entries(v.overall).map(([resource, overall]) => [
      `${v.namespace}/${v.name}`,
      resource,
      v.overallUsed[resource] ?? '0',
      overall,
      v.aggregatedStatus
        .filter((c) => c.hard[resource] !== undefined)
        .map((c) => `${c.clusterName} ${c.used[resource] ?? '0'}/${c.hard[resource]}`)
        .join(', '),
    ]),
  );
  return columns([headers, ...rows]);
}
