import type { LabelSelector } from '../model/selectors.js';
import { refKey, refLabel } from '../model/object-ref.js';
import type { HealthStatus } from '../health/health.js';
import type { BindingView } from '../publish/binding-record.js';
import { matchLabelSelector } from '../select/match-label-selector.js';
import { aggregateBindingStatus } from './aggregate-status.js';
import type { AgentReport, ObjectStatusRecord } from './status-branch.js';
import { indexRecords, templateStatusItems } from './fleet-summary.js';
import type { FleetStatusData } from './fleet-status-data.js';
import type { AggregatedStatusItem } from '../publish/binding-status.js';
import { templateExplainer } from './explain-template.js';
import type { ExplanationReason } from './explanation.js';

/** One template on one cluster, as `gitfleet status` shows it. */
export interface StatusRow {
  /** `Kind/namespace/name` or `Kind/name`. */
  template: string;
  cluster: string;
  /** Whether the template is scheduled to the cluster. */
  placed: boolean;
  /** The replicas scheduled there, for templates with replicas. */
  replicas?: number;
  /** The cluster-branch commit the cluster's agent fully applied, when it reported one. */
  appliedCommit: string | null;
  applied: boolean;
  /** Absent when the template is neither placed on the cluster nor reported by it. */
  health?: HealthStatus;
  message?: string;
  /** The reason of the template's explanation on the cluster (fleetStatusTable: explain-template.ts). */
  reason?: ExplanationReason;
  /** Its message, when the reason is not Healthy. */
  why?: string;
}

export interface StatusTableInput {
  /** The records of the bindings branch (parseBindingView). */
  bindings: readonly BindingView[];
  /** Each cluster's report (parseStatusBranch), by cluster name. */
  reports: ReadonlyMap<string, AgentReport>;
  /** More clusters to show (e.g. every cluster branch), besides the reporting and scheduled ones. */
  clusters?: readonly string[];
  /** Keeps the templates whose labels match (kubectl's `-l`). */
  selector?: LabelSelector;
  /** The templates' labels by refKey; the bindings branch does not hold them. Missing means none. */
  templateLabels?: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** The head of each cluster branch (see aggregateBindingStatus). */
  renderedCommitOf?: (cluster: string) => string | undefined;
  /** Leaves out the rows of clusters a template is not placed on (`status --wide` without `--all`). */
  placedOnly?: boolean;
  /**
   * A binding's status on each cluster it is placed on (default: aggregateBindingStatus over the
   * reports); fleetStatusTable passes templateStatusItems, which knows the hub-aggregated clusters.
   */
  itemsOf?: (binding: BindingView) => AggregatedStatusItem[];
}

/**
 * Returns the status table of fleet status data (readFleetStatus): every template on every
 * cluster with a branch or a report, placed rows only with `placedOnly`; right for data read
 * with `objects: 'fresh'` too.
 */
export function fleetStatusTable(data: FleetStatusData, opts: { placedOnly?: boolean } = {}): StatusRow[] {
  const explain = templateExplainer(data);
  const explained = new Map(data.bindings.map((b) => [refLabel(b.resource), explain(b)]));
  return statusTable({
    bindings: data.bindings,
    reports: data.reports,
    clusters: [...new Set([...data.renderedHeads.keys(), ...data.unreadable.keys()])],
    renderedCommitOf: (cluster) => data.renderedHeads.get(cluster),
    itemsOf: templateStatusItems(data),
    ...(opts.placedOnly ? { placedOnly: true } : {}),
  }).map((row) => {
    const c = explained.get(row.template)?.clusters.find((x) => x.cluster === row.cluster);
    if (!c) return row;
    return { ...row, reason: c.reason, ...(c.reason !== 'Healthy' ? { why: c.message } : {}) };
  });
}

/**
 * Returns one row per template (binding) and cluster, templates in label order and clusters by
 * name: where it is placed, its replicas there, and whether the cluster's agent applied it and
 * how healthy it is, judged from the agents' reports as the hub aggregates them.
 */
export function statusTable(input: StatusTableInput): StatusRow[] {
  const clusters = clusterNames(input);
  const bindings = input.bindings
    .filter(
      (b) => !input.selector || matchLabelSelector(input.selector, input.templateLabels?.get(b.key) ?? {}),
    )
    .map((b) => ({ binding: b, label: refLabel(b.resource) }))
    .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  const recordOf = indexRecords(input.reports);
  return bindings.flatMap(({ binding, label }) => rowsOf(input, recordOf, binding, label, clusters));
}

type RecordOf = (cluster: string, key: string) => ObjectStatusRecord | undefined;

function clusterNames(input: StatusTableInput): string[] {
  const names = new Set<string>([...(input.clusters ?? []), ...input.reports.keys()]);
  for (const b of input.bindings) for (const c of b.clusters) names.add(c.name);
  return [...names].sort();
}

function rowsOf(
  input: StatusTableInput,
  recordOf: RecordOf,
  binding: BindingView,
  template: string,
  clusters: string[],
): StatusRow[] {
  const aggregated =
    input.itemsOf?.(binding) ??
    aggregateBindingStatus({
      binding: {
        resource: binding.resource,
        schedule: { type: 'Scheduled', clusters: binding.clusters },
        ...(binding.checkOnly ? { checkOnly: true } : {}),
      },
      reports: input.reports,
      ...(input.renderedCommitOf ? { renderedCommitOf: input.renderedCommitOf } : {}),
      recordOf,
    }).aggregatedStatus;
  const placed = new Set(aggregated.map((s) => s.clusterName));
  const shown = input.placedOnly ? clusters.filter((c) => placed.has(c)) : clusters;
  return shown.map((cluster): StatusRow => {
    const appliedCommit = input.reports.get(cluster)?.appliedCommit ?? null;
    const item = aggregated.find((s) => s.clusterName === cluster);
    if (item) {
      const replicas =
        binding.replicas > 0 ? binding.clusters.find((c) => c.name === cluster)?.replicas : undefined;
      return {
        template,
        cluster,
        placed: true,
        ...(replicas !== undefined ? { replicas } : {}),
        appliedCommit,
        applied: item.applied,
        health: item.health,
        ...(item.appliedMessage ? { message: item.appliedMessage } : {}),
      };
    }
    return unplacedRow({ input, recordOf, binding, template, cluster, appliedCommit });
  });
}

// A template not scheduled to a cluster may still be there: removed from the placement and not
// yet pruned, or kept by preserveResourcesOnDeletion. The agent's report says so.
function unplacedRow(input: {
  input: StatusTableInput;
  recordOf: RecordOf;
  binding: BindingView;
  template: string;
  cluster: string;
  appliedCommit: string | null;
}): StatusRow {
  const record = input.recordOf(input.cluster, refKey(input.binding.resource));
  const base = {
    template: input.template,
    cluster: input.cluster,
    placed: false,
    appliedCommit: input.appliedCommit,
  };
  if (!record) return { ...base, applied: false };
  return {
    ...base,
    applied: record.applied,
    health: record.health,
    message: 'not placed here, but still reported by the agent',
  };
}
