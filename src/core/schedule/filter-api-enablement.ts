import type { Cluster, ClusterStatus } from '../model/cluster.js';
import { fleetApiKey } from './fleet-apis.js';
import type { FilterContext, FilterResult } from './filter-plugin.js';

/**
 * Returns whether the cluster serves the template's API (Karmada's APIEnablement filter,
 * pkg/scheduler/framework/plugins/apienablement, with Cluster.APIEnablement from
 * pkg/apis/cluster/v1alpha1/cluster_helper.go):
 *
 *   | case                                              | Karmada | gitfleet |
 *   |---------------------------------------------------|---------|----------|
 *   | cluster in the previous result                    | pass    | pass     |
 *   | groupVersion + kind listed in apiEnablements      | pass    | pass     |
 *   | not listed (list complete or partial)             | reject  | reject   |
 *   | no status / no apiEnablements reported (unknown)  | reject  | pass     |
 *   | a CRD of the fleet placed on the cluster serves it | reject* | pass     |
 *
 * gitfleet passes unknown clusters because only the agent reports APIs, and it reports them
 * for a cluster that already receives its branch. (*) Karmada places the resource once the
 * cluster's status lists the API its propagated CRD added; its scheduler does not place a
 * Divided binding again when that happens, and neither would gitfleet's. gitfleet schedules the
 * fleet's CRDs first (schedule-claims.ts) and counts what they serve (fleet-apis.ts), so a CRD
 * and its resources pushed together are placed as the policy says, not by which agents happened
 * to report before the hub's render.
 */
export function filterApiEnablement(cluster: Cluster, context: FilterContext): FilterResult {
  if (context.previousClusters.has(cluster.name)) return { ok: true };
  const { apiVersion, kind } = context.resource;
  if (context.fleetApis?.get(cluster.name)?.has(fleetApiKey(apiVersion, kind))) return { ok: true };
  const status = context.clusterStatus.get(cluster.name);
  const enablements = status?.apiEnablements;
  if (enablements === undefined) return { ok: true };
  const listed = enablements.some(
    (e) => e.groupVersion === apiVersion && e.resources.some((r) => r.kind === kind),
  );
  if (listed) return { ok: true };
  const partial = isPartialList(status)
    ? ' (its API list is partial, CompleteAPIEnablements=False: if the cluster serves the API, it is placed once its list is complete)'
    : '';
  return { ok: false, filter: 'APIEnablement', reason: `API ${apiVersion} ${kind} not enabled${partial}` };
}

// Karmada's CompleteAPIEnablements condition: False means discovery missed some API groups, so
// an API absent from the list may still be served. gitfleet's agent reports a list only when
// discovery answered in full (adapters/kube/discovery.ts), so a list without the condition is
// complete.
function isPartialList(status: ClusterStatus | undefined): boolean {
  return status?.conditions?.some((c) => c.type === 'CompleteAPIEnablements' && c.status !== 'True') ?? false;
}
