// The dashboard's overview of templates (`/api/templates`), as Argo CD lists applications: one
// line per template with a health badge (the rollup `gitfleet status` prints,
// core/status/fleet-summary.ts), a sync badge and, for anything not Healthy, the reason: the
// one explanation core/status/explain-template.ts gives `gitfleet status` too. Sync
// answers "did the clusters apply what the hub rendered?": a cluster is in sync with a template
// when its agent reports the cluster branch's head applied, this object included (the
// aggregation's `applied`, core/status/aggregate-status.ts):
//
// | sync       | when                                                                      |
// |------------|---------------------------------------------------------------------------|
// | Synced     | every cluster it is placed on applied the head the hub rendered there      |
// | OutOfSync  | a cluster it is placed on reported, but not that head, or not this object  |
// | Unknown    | the clusters that are not in sync have not reported at all (or do not read)|
// | NotPlaced  | it is placed on no cluster                                                 |
// | CheckedAtRender | kept for the check only (a check-only admission policy or binding): the hub checks each cluster's render with it, no cluster applies it |
import type { FleetStatusData } from '../../core/status/fleet-status-data.js';
import { summarizeTemplates, type HealthRollup } from '../../core/status/fleet-summary.js';
import type { ExplanationReason, TemplateExplanation } from '../../core/status/explanation.js';
import type { BindingView } from '../../core/publish/binding-record.js';
import { refLabel } from '../../core/model/object-ref.js';
import type { TemplateIdentity } from './dashboard-view.js';

/** Whether the clusters a template is placed on applied what the hub rendered (see the table above). */
export type SyncState = 'Synced' | 'OutOfSync' | 'Unknown' | 'NotPlaced' | 'CheckedAtRender';

/** One template of the overview. */
export interface TemplateItem extends TemplateIdentity {
  policy?: string;
  origin: BindingView['origin'];
  /** How many clusters it is placed on, and how many of them are in sync. */
  clusters: number;
  synced: number;
  replicas: number;
  health: HealthRollup;
  sync: SyncState;
  /** The explanation's reason in one word (core/status/explanation.ts): the worst over its clusters. */
  why: ExplanationReason;
  /** Why it is not Healthy: the explanation's message (absent when its reason is Healthy). */
  reason?: string;
  /** How many clusters it is being evicted from. */
  evictions: number;
}

/** The overview document. */
export interface TemplateListView {
  templates: TemplateItem[];
}

/** Returns a template's sync state from whether each cluster it is placed on applied it. */
export function syncOf(
  placed: readonly { cluster: string; applied: boolean; checkedAtRender?: boolean }[],
  hasReport: (cluster: string) => boolean,
): SyncState {
  if (placed.length === 0) return 'NotPlaced';
  if (placed.every((p) => p.checkedAtRender)) return 'CheckedAtRender';
  const behind = placed.filter((p) => !p.applied);
  if (behind.length === 0) return 'Synced';
  return behind.some((p) => hasReport(p.cluster)) ? 'OutOfSync' : 'Unknown';
}

/** Returns the overview of every template, in label order, with each one's explanation (by refKey). */
export function templateListOf(
  data: FleetStatusData,
  explanations: ReadonlyMap<string, TemplateExplanation>,
): TemplateListView {
  const byKey = new Map(data.bindings.map((b) => [b.key, b]));
  const evicted = new Map<string, number>();
  for (const e of data.evictions) evicted.set(e.template, (evicted.get(e.template) ?? 0) + 1);
  const hasReport = (cluster: string) => data.reports.has(cluster);
  const templates = summarizeTemplates(data).map((summary): TemplateItem => {
    const binding = byKey.get(summary.key)!;
    const explained = explanations.get(binding.key);
    // Applied or not on each cluster it is placed on, as the explanation read it (templateStatusItems).
    const placed = (explained?.clusters ?? [])
      .filter((c) => c.placed)
      .map((c) => ({
        cluster: c.cluster,
        applied: c.applied === true,
        checkedAtRender: c.reason === 'CheckedAtRender',
      }));
    const why = explained?.reason ?? 'Healthy';
    return {
      label: summary.template,
      key: summary.key,
      kind: binding.resource.kind,
      namespace: binding.resource.namespace,
      name: binding.resource.name,
      labels: data.templateLabels.get(binding.key) ?? {},
      ...(summary.policy !== undefined ? { policy: summary.policy } : {}),
      origin: summary.origin,
      clusters: summary.clusters,
      synced: placed.filter((p) => p.applied).length,
      replicas: summary.replicas,
      health: summary.health,
      sync: syncOf(placed, hasReport),
      why,
      ...(why !== 'Healthy' && explained?.message ? { reason: explained.message } : {}),
      evictions: evicted.get(refLabel(binding.resource)) ?? 0,
    };
  });
  return { templates };
}
