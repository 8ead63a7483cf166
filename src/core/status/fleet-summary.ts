// The two summaries `gitfleet status` prints by default and `gitfleet ui` shows: one line per
// cluster and one per template, read at a glance like `kubectl get` or `argocd app list`, in
// place of the template × cluster matrix (100,000 rows for 2,000 templates on 50 clusters).
import type { HealthStatus } from '../health/health.js';
import { refKey, refLabel } from '../model/object-ref.js';
import { policyLabel } from '../model/propagation-policy.js';
import { parseTime } from '../model/rfc3339.js';
import type { BindingView } from '../publish/binding-record.js';
import type { AggregatedStatusItem } from '../publish/binding-status.js';
import { aggregateBindingStatus } from './aggregate-status.js';
import type { ClusterExplanation, ExplanationReason } from './explanation.js';
import type { CommitDistance, FleetStatusData } from './fleet-status-data.js';
import type { AgentReport, ObjectStatusRecord } from './status-branch.js';

/**
 * Whether a cluster is Ready, in this order: `Unreadable` when its status branch does not parse;
 * the hub's monitor's verdict when the bindings head records one (the agent stopped renewing its
 * heartbeat, so what it last reported is stale); `NotReported` without a status branch; else the
 * status of the Ready condition the agent reported (`Unknown` when it reported none).
 */
export type ClusterReadiness = 'True' | 'False' | 'Unknown' | 'Unreadable' | 'NotReported';

/** How many of a cluster's objects are in each state, as its agent reported them. */
export interface ObjectCounts {
  /** Every object of the report. */
  total: number;
  /** Applied, by health. */
  healthy: number;
  progressing: number;
  degraded: number;
  unknown: number;
  /** Not applied: the apply failed or has not happened (the agent's message says which). */
  failed: number;
}

/** One cluster at a glance. */
export interface ClusterSummary {
  cluster: string;
  ready: ClusterReadiness;
  /** Why it is not Ready: the condition's reason and message, the monitor's verdict, the parse error. */
  readyMessage?: string;
  kubernetesVersion?: string;
  nodes?: { ready: number; total: number };
  /** The head of its cluster branch. */
  renderedCommit?: string;
  /** The cluster-branch commit its agent fully applied. */
  appliedCommit: string | null;
  /** How far the applied commit is behind the rendered one (absent without a report or a branch). */
  behind?: CommitDistance;
  objects: ObjectCounts;
  /** When the agent last committed a report, and how many seconds before `now`. */
  reportedAt?: string;
  reportAgeSeconds?: number;
  /** When the agent last renewed its heartbeat, and how many seconds before `now`. */
  heartbeatAt?: string;
  heartbeatAgeSeconds?: number;
}

/**
 * A template's health over the clusters it is placed on, the worst one winning: Degraded (a
 * person should look) > Unknown (not applied, not reported, or the agent cannot tell) >
 * Progressing > Healthy. `NotPlaced` when it is scheduled nowhere; `CheckedAtRender` when it is
 * kept for the check only (a check-only admission policy or binding: no cluster runs it).
 */
export type HealthRollup = HealthStatus | 'NotPlaced' | 'CheckedAtRender';

const rollupOrder: readonly HealthStatus[] = ['Healthy', 'Progressing', 'Unknown', 'Degraded'];

/** One template at a glance. */
export interface TemplateSummary {
  /** `Kind/namespace/name` or `Kind/name`. */
  template: string;
  /** refKey of the template. */
  key: string;
  /** The claiming policy (`PropagationPolicy/ns/name`, `ClusterPropagationPolicy/name`); absent for followers. */
  policy?: string;
  origin: BindingView['origin'];
  /** The number of clusters it is placed on. */
  clusters: number;
  /** The template's desired replicas (0 for objects without replicas). */
  replicas: number;
  /** Where it is placed, by cluster name, with the replicas there for templates with replicas. */
  placement: { cluster: string; replicas?: number }[];
  health: HealthRollup;
  /** Over the placed clusters: applied by health, and not applied. */
  counts: { healthy: number; progressing: number; degraded: number; unknown: number; notApplied: number };
  /**
   * Why it is not Healthy (core/status/explain-template.ts): the worst cluster's explanation, or
   * why it is placed nowhere; without an explanation, the first placed cluster that is not
   * Healthy and why (`member2: not yet applied: …`).
   */
  message?: string;
  /** The reason of its explanation (explainTemplateSummaries). */
  reason?: ExplanationReason;
  /** Its clusters' explanations: those that say more than "fine" or "not chosen", or every one when asked. */
  explanation?: ClusterExplanation[];
}

/** Returns one summary per cluster that has a cluster branch, a status branch or a placement, by name. */
export function summarizeClusters(data: FleetStatusData, now: Date): ClusterSummary[] {
  const byHub = countAggregatedByHub(data);
  return clusterNamesOf(data).map((cluster) => summarizeCluster(data, cluster, now, byHub.get(cluster)));
}

// The object counts of the clusters the hub's aggregation stands for: one object per binding
// placed there, counted by the status the hub recorded for it on that cluster, plus the objects
// the report carries.
function countAggregatedByHub(data: FleetStatusData): Map<string, ObjectCounts> {
  const counts = new Map<string, ObjectCounts>();
  if (data.aggregatedByHub.size === 0) return counts;
  // The report carries the records of what is not a binding placed there.
  for (const cluster of data.aggregatedByHub)
    counts.set(cluster, countObjects(data.reports.get(cluster)?.objects ?? []));
  for (const binding of data.bindings) {
    if (binding.checkOnly) continue; // not on the cluster: nothing of it to count
    const recorded = new Map(binding.aggregatedStatus.map((s) => [s.clusterName, s]));
    for (const { name } of binding.clusters) {
      const c = counts.get(name);
      if (!c) continue;
      const item = recorded.get(name);
      c.total++;
      if (!item || !item.applied) c.failed++;
      else c[healthKey(item.health)]++;
    }
  }
  return counts;
}

function emptyCounts(): ObjectCounts {
  return { total: 0, healthy: 0, progressing: 0, degraded: 0, unknown: 0, failed: 0 };
}

function healthKey(health: HealthStatus): 'healthy' | 'progressing' | 'degraded' | 'unknown' {
  return health === 'Healthy'
    ? 'healthy'
    : health === 'Progressing'
      ? 'progressing'
      : health === 'Degraded'
        ? 'degraded'
        : 'unknown';
}

/** Returns every cluster the data knows of, sorted by name. */
export function clusterNamesOf(data: FleetStatusData): string[] {
  const names = new Set<string>([
    ...data.renderedHeads.keys(),
    ...data.reports.keys(),
    ...data.unreadable.keys(),
  ]);
  for (const b of data.bindings) for (const c of b.clusters) names.add(c.name);
  return [...names].sort();
}

function summarizeCluster(
  data: FleetStatusData,
  cluster: string,
  now: Date,
  byHub: ObjectCounts | undefined,
): ClusterSummary {
  const report = data.reports.get(cluster);
  const rendered = data.renderedHeads.get(cluster);
  const behind = data.behind.get(cluster);
  const reportedAt = data.reportTimes.get(cluster);
  const heartbeatAt = data.heartbeatTimes.get(cluster);
  const version = report?.clusterStatus?.kubernetesVersion;
  const nodes = report?.clusterStatus?.nodeSummary;
  return {
    cluster,
    ...readinessOf(data, cluster, report),
    ...(version !== undefined ? { kubernetesVersion: version } : {}),
    ...(nodes ? { nodes: { ready: nodes.readyNum, total: nodes.totalNum } } : {}),
    ...(rendered !== undefined ? { renderedCommit: rendered } : {}),
    appliedCommit: report?.appliedCommit ?? null,
    ...(behind ? { behind } : {}),
    objects: byHub ?? countObjects(report?.objects ?? []),
    ...(reportedAt !== undefined ? { reportedAt } : {}),
    ...ageField('reportAgeSeconds', reportedAt, now),
    ...(heartbeatAt !== undefined ? { heartbeatAt } : {}),
    ...ageField('heartbeatAgeSeconds', heartbeatAt, now),
  };
}

/** Returns whether a cluster is Ready and why not (ClusterReadiness), as its summary says. */
export function readinessOf(
  data: Pick<FleetStatusData, 'unreadable' | 'judged'>,
  cluster: string,
  report: AgentReport | undefined,
): { ready: ClusterReadiness; readyMessage?: string } {
  const unreadable = data.unreadable.get(cluster);
  if (unreadable !== undefined) return { ready: 'Unreadable', readyMessage: unreadable };
  const judged = data.judged.get(cluster);
  if (judged !== undefined)
    return {
      ready: judged === 'True' || judged === 'False' ? judged : 'Unknown',
      readyMessage: `judged ${judged} by the hub's cluster monitor: its agent stopped renewing its heartbeat`,
    };
  if (!report) return { ready: 'NotReported', readyMessage: 'no status branch: its agent has not reported' };
  const condition = report.clusterStatus?.conditions?.find((c) => c.type === 'Ready');
  if (!condition) return { ready: 'Unknown', readyMessage: 'the agent reported no Ready condition' };
  const why = [condition.reason, condition.message].filter((s) => s).join(': ');
  return { ready: condition.status, ...(condition.status !== 'True' && why ? { readyMessage: why } : {}) };
}

/** Returns how many of the objects are in each state. */
export function countObjects(objects: readonly ObjectStatusRecord[]): ObjectCounts {
  const counts = { ...emptyCounts(), total: objects.length };
  for (const o of objects) {
    if (!o.applied) counts.failed++;
    else counts[healthKey(o.health)]++;
  }
  return counts;
}

// Whole seconds; a time after `now` (clocks apart) counts as 0, and an unreadable one as absent.
function ageField<K extends string>(key: K, time: string | undefined, now: Date): Partial<Record<K, number>> {
  const at = time === undefined ? undefined : parseTime(time);
  if (at === undefined) return {};
  return { [key]: Math.max(0, Math.floor((now.getTime() - at) / 1000)) } as Partial<Record<K, number>>;
}

/**
 * Returns one summary per binding, sorted by template: where it is placed, its replicas, and its
 * health over those clusters, judged from the agents' reports as the hub aggregates them
 * (aggregateBindingStatus: a cluster whose applied commit is not its rendered head has not
 * applied it yet).
 */
export function summarizeTemplates(data: FleetStatusData): TemplateSummary[] {
  const itemsOf = templateStatusItems(data);
  return data.bindings
    .map((binding) => ({ binding, label: refLabel(binding.resource) }))
    .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
    .map(({ binding, label }) => summarizeTemplate(binding, label, itemsOf(binding)));
}

/**
 * Returns a function giving a binding's status on each cluster it is placed on, sorted by
 * cluster (Karmada's aggregatedStatus): for a cluster in `aggregatedByHub` that has applied its
 * rendered head the item the hub recorded, for the others aggregateBindingStatus over the agent's report. Made once per data
 * (it indexes the reports); the cells of the template × cluster matrix.
 */
export function templateStatusItems(data: FleetStatusData): (binding: BindingView) => AggregatedStatusItem[] {
  const recordOf = indexRecords(data.reports);
  const renderedCommitOf = (cluster: string) => data.renderedHeads.get(cluster);
  return (binding) => {
    const items = aggregateBindingStatus({
      binding: {
        resource: binding.resource,
        schedule: { type: 'Scheduled', clusters: binding.clusters },
        ...(binding.checkOnly ? { checkOnly: true } : {}),
      },
      reports: data.reports,
      renderedCommitOf,
      recordOf,
    }).aggregatedStatus;
    if (data.aggregatedByHub.size === 0 || binding.checkOnly) return items;
    // The hub records what the agent reported (it aggregates without the rendered heads), so a
    // cluster behind its rendered head keeps the computed "not yet applied".
    return items.map((item) =>
      data.aggregatedByHub.has(item.clusterName) &&
      data.reports.get(item.clusterName)?.appliedCommit === data.renderedHeads.get(item.clusterName)
        ? (binding.aggregatedStatus.find((s) => s.clusterName === item.clusterName) ?? {
            clusterName: item.clusterName,
            applied: false,
            health: 'Unknown',
            appliedMessage: `the hub recorded no status of ${refLabel(binding.resource)} on cluster ${item.clusterName}`,
          })
        : item,
    );
  };
}

/** Returns a lookup of each report's records by cluster and refKey, built once. */
export function indexRecords(
  reports: ReadonlyMap<string, AgentReport>,
): (cluster: string, key: string) => ObjectStatusRecord | undefined {
  const index = new Map<string, Map<string, ObjectStatusRecord>>();
  for (const [cluster, report] of reports)
    index.set(cluster, new Map(report.objects.map((o) => [refKey(o.ref), o])));
  return (cluster, key) => index.get(cluster)?.get(key);
}

function summarizeTemplate(
  binding: BindingView,
  label: string,
  items: readonly AggregatedStatusItem[],
): TemplateSummary {
  const counts = { healthy: 0, progressing: 0, degraded: 0, unknown: 0, notApplied: 0 };
  let worst = -1;
  let message: string | undefined;
  const checked = items.length > 0 && items.every((i) => i.checkedAtRender);
  for (const item of items) {
    if (checked) continue;
    if (!item.applied) counts.notApplied++;
    else if (item.health === 'Healthy') counts.healthy++;
    else if (item.health === 'Progressing') counts.progressing++;
    else if (item.health === 'Degraded') counts.degraded++;
    else counts.unknown++;
    worst = Math.max(worst, rollupOrder.indexOf(item.health));
    if (message === undefined && (!item.applied || item.health !== 'Healthy'))
      message = `${item.clusterName}: ${item.appliedMessage ?? item.health}`;
  }
  const placement = [...binding.clusters]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((c) => ({ cluster: c.name, ...(binding.replicas > 0 ? { replicas: c.replicas ?? 0 } : {}) }));
  return {
    template: label,
    key: binding.key,
    ...(binding.policy ? { policy: policyLabel(binding.policy) } : {}),
    origin: binding.origin,
    clusters: placement.length,
    replicas: binding.replicas,
    placement,
    health: checked ? 'CheckedAtRender' : worst < 0 ? 'NotPlaced' : rollupOrder[worst]!,
    counts,
    ...(message !== undefined ? { message } : {}),
  };
}
