// The filters of `gitfleet status` (and the dashboard's): `--cluster`, `--template` and `-l`,
// applied to the data before any view is made of it, so every view (the summaries, the matrix,
// the failover section) shows the same subset.
import type { LabelSelector } from '../model/selectors.js';
import { refLabel } from '../model/object-ref.js';
import { matchLabelSelector } from '../select/match-label-selector.js';
import type { FleetStatusData } from './fleet-status-data.js';
import { matchTemplate } from './match-template.js';

export interface FleetStatusFilter {
  /** Only these clusters; and only the templates placed on at least one of them. */
  clusters?: readonly string[];
  /** Only the templates one of these patterns names (matchTemplate). */
  templates?: readonly string[];
  /** Only the templates whose labels (`templateLabels`) match. */
  selector?: LabelSelector;
}

/**
 * Returns the data with only what the filter keeps: the bindings of the matching templates (with
 * a cluster filter, their placement cut to those clusters, and those placed on none of them left
 * out), every per-cluster map cut to the clusters, and the eviction tasks of the kept templates
 * on the kept clusters. Rollouts are kept whole: a rollout spans clusters and templates.
 */
export function filterFleetStatus(data: FleetStatusData, filter: FleetStatusFilter): FleetStatusData {
  const clusters = filter.clusters ? new Set(filter.clusters) : undefined;
  const inClusters = (name: string) => !clusters || clusters.has(name);
  const bindings = data.bindings
    .filter((b) => !filter.templates || filter.templates.some((p) => matchTemplate(p, b.resource)))
    .filter(
      (b) => !filter.selector || matchLabelSelector(filter.selector, data.templateLabels.get(b.key) ?? {}),
    )
    .map((b) => (clusters ? { ...b, clusters: b.clusters.filter((c) => clusters.has(c.name)) } : b))
    .filter((b) => !clusters || b.clusters.length > 0);
  const shown = new Set(bindings.map((b) => refLabel(b.resource)));
  const cut = <V>(map: ReadonlyMap<string, V>) => new Map([...map].filter(([name]) => inClusters(name)));
  return {
    ...data,
    bindings,
    reports: cut(data.reports),
    aggregatedByHub: new Set([...data.aggregatedByHub].filter(inClusters)),
    unreadable: cut(data.unreadable),
    reportTimes: cut(data.reportTimes),
    heartbeatTimes: cut(data.heartbeatTimes),
    renderedHeads: cut(data.renderedHeads),
    behind: cut(data.behind),
    judged: cut(data.judged),
    evictions: data.evictions.filter((t) => shown.has(t.template) && inClusters(t.cluster)),
    ...(data.hubRefusals ? { hubRefusals: data.hubRefusals.filter((r) => inClusters(r.cluster)) } : {}),
  };
}
