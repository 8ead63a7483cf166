// The rollout and eviction lists (`/api/rollouts`, `/api/evictions`): what `gitfleet status`
// prints under "Rollouts" and in its eviction table (format-rollout-text.ts,
// format-status-text.ts), from the same FleetStatusData, with the templates each rollout selects
// and the refKey of each evicted template, so the page can link them.
import { refLabel } from '../../core/model/object-ref.js';
import type { RolloutView } from '../../core/rollout/rollout-view.js';
import { strategyLabel } from '../../core/model/rollout.js';
import type { FleetStatusData, TemplateEvictionTask } from '../../core/status/fleet-status-data.js';
import type { TemplateExplanation } from '../../core/status/explanation.js';

/** A template a list links to: its label and refKey. */
export interface TemplateLink {
  label: string;
  key: string;
}

/** The rollouts document: every record of the bindings branch, with the templates its strategy selects. */
export interface RolloutListView {
  rollouts: (RolloutView & { strategy?: string; templates: TemplateLink[] })[];
}

/** The evictions document: every eviction task, and the clusters the hub's monitor judged. */
export interface EvictionListView {
  /** Each task with its template's refKey and when the copy goes at the latest (the explanation's `until`). */
  evictions: (TemplateEvictionTask & { key?: string; until?: string })[];
  /** cluster → the monitor's verdict (Gitfleet-Cluster-Judged on the bindings head). */
  judged: Record<string, string>;
}

/** Returns the rollouts the bindings branch records, readable or not, by path. */
export function rolloutListOf(data: FleetStatusData): RolloutListView {
  const selected = new Map<string, TemplateLink[]>();
  const labels = new Map(data.bindings.map((b) => [b.key, refLabel(b.resource)]));
  for (const [key, strategy] of data.rolledOutBy ?? []) {
    const label = labels.get(key);
    if (label === undefined) continue;
    const list = selected.get(strategy) ?? [];
    list.push({ label, key });
    selected.set(strategy, list);
  }
  return {
    rollouts: data.rollouts.map((v) => {
      if (!('rollout' in v)) return { ...v, templates: [] };
      const strategy = strategyLabel(v.rollout.strategy);
      const templates = (selected.get(strategy) ?? []).sort((a, b) => (a.label < b.label ? -1 : 1));
      return { ...v, strategy, templates };
    }),
  };
}

/** Returns every eviction task (templates in label order) with the template's refKey and, from its explanation, until when. */
export function evictionListOf(
  data: FleetStatusData,
  explanations: ReadonlyMap<string, TemplateExplanation> = new Map(),
): EvictionListView {
  const keys = new Map(data.bindings.map((b) => [refLabel(b.resource), b.key]));
  return {
    evictions: data.evictions.map((e) => {
      const key = keys.get(e.template);
      if (key === undefined) return e;
      const until = explanations.get(key)?.clusters.find((c) => c.cluster === e.cluster)?.eviction?.until;
      return until !== undefined ? { ...e, key, until } : { ...e, key };
    }),
    judged: Object.fromEntries(data.judged),
  };
}
