// One explanation per template and cluster, from fleet status data (what Git holds): the
// function `gitfleet status`, `status --template`, the dashboard and `gitfleet log` call, so they
// can never say two different things about the same object. Per cluster it is
// explain-placed-cluster.ts or explain-unplaced-cluster.ts; the template's reason is the worst
// of its clusters (explanationReasons order), or why it is placed nowhere.
import { objectPath } from '../format/object-path.js';
import { refLabel } from '../model/object-ref.js';
import { policyLabel } from '../model/propagation-policy.js';
import type { RolloutState } from '../model/rollout.js';
import type { BindingView } from '../publish/binding-record.js';
import type { ObjectStatusRecord } from './status-branch.js';
import { explainPlacedCluster } from './explain-placed-cluster.js';
import { explainUnplacedCluster } from './explain-unplaced-cluster.js';
import {
  explanationReasons,
  type ClusterExplanation,
  type ExplanationReason,
  type TemplateExplanation,
} from './explanation.js';
import type { FleetStatusData } from './fleet-status-data.js';
import { describeProvenance } from '../sources/describe-provenance.js';
import {
  clusterNamesOf,
  indexRecords,
  readinessOf,
  summarizeTemplates,
  templateStatusItems,
  type TemplateSummary,
} from './fleet-summary.js';

/** Karmada's default --graceful-eviction-timeout (10 minutes). */
export const defaultGracefulEvictionTimeoutSeconds = 600;

export interface ExplainOptions {
  /** The hub's --graceful-eviction-timeout, for eviction tasks without their own grace period. */
  gracefulEvictionTimeoutSeconds?: number;
}

/** Returns a function explaining any binding of the data: what is indexed is built once, for many calls. */
export function templateExplainer(
  data: FleetStatusData,
  opts: ExplainOptions = {},
): (binding: BindingView) => TemplateExplanation {
  const itemsOf = templateStatusItems(data);
  const recordOf = indexRecords(data.reports);
  const clusters = clusterNamesOf(data);
  const readiness = new Map(clusters.map((c) => [c, readinessFor(data, c)]));
  const rollouts = unfinishedRollouts(data);
  const timeout = opts.gracefulEvictionTimeoutSeconds ?? defaultGracefulEvictionTimeoutSeconds;
  return (binding) => {
    const template = refLabel(binding.resource);
    const items = new Map(itemsOf(binding).map((i) => [i.clusterName, i]));
    const rollout = rollouts.get(objectPath(binding.resource));
    const explained = namesOf(binding, clusters).map((cluster): ClusterExplanation => {
      const item = items.get(cluster);
      const record = recordOf(cluster, binding.key);
      if (item) {
        const report = data.reports.get(cluster);
        const rendered = data.renderedHeads.get(cluster);
        return explainPlacedCluster({
          cluster,
          template,
          item,
          ...(record ? { record } : {}),
          aggregatedByHub: data.aggregatedByHub.has(cluster),
          readiness: readiness.get(cluster) ?? { ready: 'NotReported' },
          ...(report ? { appliedCommit: report.appliedCommit } : {}),
          ...(rendered !== undefined ? { renderedHead: rendered } : {}),
          ...(rollout ? { rollout } : {}),
        });
      }
      return unplacedOf(binding, cluster, timeout, record);
    });
    return {
      template,
      key: binding.key,
      ...rollup(binding, explained),
      clusters: explained,
      ...(binding.templateSource ? { source: describeProvenance(binding.templateSource) } : {}),
    };
  };
}

/**
 * Returns why a binding is not on the clusters it is not placed on, from its record alone (no
 * agent's report): for a preview of a change (core/review/explain-preview.ts). The reason and
 * message are the template's when it is placed nowhere.
 */
export function explainPlacement(
  binding: BindingView,
  clusters: readonly string[],
  opts: ExplainOptions = {},
): { reason?: ExplanationReason; message?: string; clusters: ClusterExplanation[] } {
  const placed = new Set(binding.clusters.map((c) => c.name));
  const timeout = opts.gracefulEvictionTimeoutSeconds ?? defaultGracefulEvictionTimeoutSeconds;
  const explained = namesOf(binding, clusters)
    .filter((c) => !placed.has(c))
    .map((cluster) => unplacedOf(binding, cluster, timeout));
  if (placed.size > 0) return { clusters: explained };
  return { ...placedNowhere(binding, explained), clusters: explained };
}

/** Returns one explanation per binding of the data, sorted by template. */
export function explainTemplates(data: FleetStatusData, opts: ExplainOptions = {}): TemplateExplanation[] {
  const explain = templateExplainer(data, opts);
  return data.bindings
    .map((b) => explain(b))
    .sort((a, b) => (a.template < b.template ? -1 : a.template > b.template ? 1 : 0));
}

/**
 * Returns the templates' summaries (summarizeTemplates) with their explanation: the reason, the
 * message (why it is not Healthy, absent when it is) and the clusters' explanations, the notable
 * ones (isNotable) unless `allClusters`.
 */
export function explainTemplateSummaries(
  data: FleetStatusData,
  opts: ExplainOptions & { allClusters?: boolean } = {},
): TemplateSummary[] {
  const explain = templateExplainer(data, opts);
  const byKey = new Map(data.bindings.map((b) => [b.key, b]));
  return summarizeTemplates(data).map((summary) => {
    const binding = byKey.get(summary.key);
    if (!binding) return summary;
    const explained = explain(binding);
    const { message: _old, ...rest } = summary;
    return {
      ...rest,
      reason: explained.reason,
      ...(explained.message ? { message: explained.message } : {}),
      explanation: opts.allClusters ? explained.clusters : explained.clusters.filter(isNotable),
    };
  });
}

/** Returns whether a cluster's explanation says more than "fine" or "not chosen": what a summary keeps. */
export function isNotable(c: ClusterExplanation): boolean {
  return (
    c.reason !== 'Healthy' &&
    c.reason !== 'NotSelected' &&
    c.reason !== 'ExcludedByAffinity' &&
    c.reason !== 'CheckedAtRender'
  );
}

// Placed nowhere and no cluster's refusal recorded: a follower nothing placed needs, a failure
// that is not a filter's (its message says it), or a record of a hub that kept no refusals.
function withoutRefusals(binding: BindingView, head: string): string {
  if (binding.origin !== 'policy') return `${head}: nothing that needs it is placed`;
  const failed = binding.scheduleFailed;
  if (failed && failed.reason !== 'NoClusterFit') return head;
  if (failed)
    return `${head}: the binding record names no cluster's reason (an older hub wrote it: its next schedule says why)`;
  return `${head}: its schedule chose no cluster`;
}

// A report without a Ready condition (an agent that does not say) does not make its word stale:
// only a condition that is not True, the monitor's verdict or an unreadable branch does.
function readinessFor(data: FleetStatusData, cluster: string): ReturnType<typeof readinessOf> {
  const report = data.reports.get(cluster);
  const readiness = readinessOf(data, cluster, report);
  const said = report?.clusterStatus?.conditions?.some((c) => c.type === 'Ready') === true;
  return readiness.ready === 'Unknown' && report && !said && !data.judged.has(cluster)
    ? { ready: 'True' }
    : readiness;
}

// The clusters the fleet knows, and those the record names that it does not (an unregistered name).
function namesOf(binding: BindingView, clusters: readonly string[]): string[] {
  return [...new Set([...clusters, ...(binding.refused ?? []).map((d) => d.cluster)])].sort();
}

function unplacedOf(
  binding: BindingView,
  cluster: string,
  timeout: number,
  record?: ObjectStatusRecord,
): ClusterExplanation {
  const refusal = binding.refused?.find((d) => d.cluster === cluster);
  const task = binding.evictionTasks?.find((t) => t.fromCluster === cluster);
  return explainUnplacedCluster({
    cluster,
    template: refLabel(binding.resource),
    resource: binding.resource,
    origin: binding.origin,
    ...(binding.policy ? { policy: policyLabel(binding.policy) } : {}),
    ...(refusal ? { refusal } : {}),
    ...(task ? { evictionTask: task } : {}),
    ...(record ? { record } : {}),
    gracefulEvictionTimeoutSeconds: timeout,
  });
}

// Path of a selected object → the unfinished rollout that holds it (records without their
// objects say nothing per object).
function unfinishedRollouts(data: FleetStatusData): Map<string, RolloutState> {
  const byPath = new Map<string, RolloutState>();
  for (const view of data.rollouts) {
    if (!('rollout' in view) || view.rollout.phase === 'Complete') continue;
    for (const path of view.rollout.objects ?? []) byPath.set(path, view.rollout);
  }
  return byPath;
}

const rank = (reason: ExplanationReason) => explanationReasons.indexOf(reason);

// The template's reason and message: why it is placed nowhere, else the worst of its placed
// clusters, its evictions and a failed schedule that kept the previous clusters.
function rollup(
  binding: BindingView,
  clusters: readonly ClusterExplanation[],
): Pick<TemplateExplanation, 'reason' | 'message'> {
  if (binding.clusters.length === 0) return placedNowhere(binding, clusters);
  const candidates = clusters.filter((c) => c.placed || c.reason === 'Evicting');
  const failed = binding.scheduleFailed
    ? [
        {
          reason: 'ScheduleFailed' as const,
          message: `the last schedule failed (${binding.scheduleFailed.reason}: ${binding.scheduleFailed.message}); the previous clusters are kept`,
        },
      ]
    : [];
  const worst = [...failed, ...candidates].sort((a, b) => rank(a.reason) - rank(b.reason));
  const first = worst[0];
  if (!first || first.reason === 'Healthy') return { reason: 'Healthy', message: '' };
  if (first.reason === 'CheckedAtRender') return checkedOn(worst.length);
  const others = worst.filter((c) => c !== first && c.reason !== 'Healthy').length;
  return {
    reason: first.reason,
    message: others > 0 ? `${first.message} (and ${others} more)` : first.message,
  };
}

// A check-only template: CheckedAtRender on every cluster it is placed on (the best reason but
// Healthy, and a template is check-only on all its clusters or none), said once.
function checkedOn(clusters: number): Pick<TemplateExplanation, 'reason' | 'message'> {
  return {
    reason: 'CheckedAtRender',
    message: `checked against the render of ${clusters} cluster${clusters === 1 ? '' : 's'}, never applied (gitfleet.io/admission: check-only)`,
  };
}

// Every cluster's refusal, the same words said once: "member1 lacks …; member2, member3: the same".
function placedNowhere(
  binding: BindingView,
  clusters: readonly ClusterExplanation[],
): Pick<TemplateExplanation, 'reason' | 'message'> {
  const refused = clusters.filter((c) => c.filter !== undefined || c.reason === 'Evicting');
  const failed = binding.scheduleFailed;
  const failedReason = failed?.reason;
  const reason: ExplanationReason =
    failedReason === undefined || failedReason === 'NoClusterFit' ? 'NoClusterFit' : 'ScheduleFailed';
  const head = failed?.message || 'placed nowhere';
  if (refused.length === 0) return { reason, message: withoutRefusals(binding, head) };
  const groups = new Map<string, string[]>();
  for (const c of refused) {
    const rest = c.message.startsWith(c.cluster) ? c.message.slice(c.cluster.length) : `: ${c.message}`;
    groups.set(rest, [...(groups.get(rest) ?? []), c.cluster]);
  }
  const parts = [...groups].map(([rest, names]) =>
    names.length === 1 ? `${names[0]}${rest}` : `${names[0]}${rest}; ${names.slice(1).join(', ')}: the same`,
  );
  return { reason, message: `${head}: ${parts.join('; ')}` };
}
