// The template page's document: the template's binding record (policy, placement, replicas per
// cluster), its status row on every cluster, its rendered file on every cluster branch (Secrets
// with every value redacted, by core/review/redact-secret-pair.ts as `gitfleet diff` does) and
// its history (what `gitfleet log <object>` prints, read by the function the command uses).
import type { BindingView } from '../../core/publish/binding-record.js';
import { objectPath } from '../../core/format/object-path.js';
import { refKey, refLabel } from '../../core/model/object-ref.js';
import { strategyLabel } from '../../core/model/rollout.js';
import type { RolloutView } from '../../core/rollout/rollout-view.js';
import type { EvictionTaskView } from '../../core/status/eviction-task-view.js';
import type { ObjectStatusRecord } from '../../core/status/status-branch.js';
import type { TemplateItem } from './template-list-view.js';
import type { TemplateExplanation } from '../../core/status/explanation.js';
import type { LogEntry } from '../../core/review/log-entry.js';
import type { ObjectSpec } from '../../core/review/parse-object-spec.js';
import { redactSecretPair } from '../../core/review/redact-secret-pair.js';
import type { StatusRow } from '../../core/status/status-table.js';
import type { FleetStatusData } from '../../core/status/fleet-status-data.js';
import { openReadRepo, readFileAt, type ReadRepo } from './read-repo-file.js';

/** Returns the history of one object on the cluster branches, newest first. */
export type ReadHistory = (object: ObjectSpec) => Promise<LogEntry[]>;

export interface TemplateView {
  label: string;
  key: string;
  /** Its line of the overview: health, sync and the reason (template-list-view.ts). */
  summary?: TemplateItem;
  /** Why it is where it is, on every cluster (core/status/explain-template.ts), as `gitfleet status --template` says. */
  explanation?: TemplateExplanation;
  binding: Omit<BindingView, 'aggregatedStatus'>;
  rows: StatusRow[];
  /** What each cluster's agent reported of the object: apply result, health, the status fields it reflects. */
  live: ({ cluster: string } & Omit<ObjectStatusRecord, 'ref'>)[];
  /** The clusters it is being evicted from (the binding record's graceful eviction tasks). */
  evictions: EvictionTaskView[];
  /** The rollout strategy that selects it, and the bindings branch's record of that rollout when there is one. */
  rollout?: { strategy: string; record?: RolloutView };
  /** cluster → the rendered file, or null when the cluster branch holds none. */
  rendered: { cluster: string; path: string; yaml: string | null }[];
  history: LogEntry[];
}

/** Returns the template page of the binding with this refKey, or undefined when there is none. */
export async function templateView(input: {
  repo: ReadRepo;
  data: FleetStatusData;
  rows: readonly StatusRow[];
  key: string;
  history: ReadHistory;
  summary?: TemplateItem;
  explanation?: TemplateExplanation;
}): Promise<TemplateView | undefined> {
  const binding = input.data.bindings.find((b) => b.key === input.key);
  if (!binding) return undefined;
  const label = refLabel(binding.resource);
  const path = objectPath(binding.resource);
  const rendered: TemplateView['rendered'] = [];
  for (const [cluster, head] of input.data.renderedHeads) {
    const elsewhere = input.data.renderedIn?.get(cluster);
    const text = await readFileAt(elsewhere ? openReadRepo(elsewhere) : input.repo, head, path);
    rendered.push({
      cluster,
      path,
      yaml: text === undefined ? null : (redactSecretPair(text, text).b ?? null),
    });
  }
  const { group, kind, namespace, name } = specOf(binding);
  const history = await input.history({ kind, ...(group ? { group } : {}), namespace, name });
  const { aggregatedStatus: _unused, ...record } = binding;
  const strategy = input.data.rolledOutBy?.get(binding.key);
  return {
    label,
    key: binding.key,
    ...(input.summary ? { summary: input.summary } : {}),
    ...(input.explanation ? { explanation: input.explanation } : {}),
    binding: record,
    rows: input.rows.filter((r) => r.template === label),
    live: liveOf(input.data, binding.key),
    evictions: input.data.evictions
      .filter((e) => e.template === label)
      .map(({ template: _t, ...task }) => task),
    ...(strategy !== undefined ? { rollout: rolloutOf(input.data, strategy) } : {}),
    rendered,
    history,
  };
}

function liveOf(data: FleetStatusData, key: string): TemplateView['live'] {
  const live: TemplateView['live'] = [];
  for (const [cluster, report] of data.reports) {
    const found = report.objects.find((o) => refKey(o.ref) === key);
    if (!found) continue;
    const { ref: _ref, ...record } = found;
    live.push({ cluster, ...record });
  }
  return live.sort((a, b) => (a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0));
}

function rolloutOf(data: FleetStatusData, strategy: string): NonNullable<TemplateView['rollout']> {
  const record = data.rollouts.find((v) => 'rollout' in v && strategyLabel(v.rollout.strategy) === strategy);
  return { strategy, ...(record ? { record } : {}) };
}

function specOf(binding: BindingView): { group: string; kind: string; namespace: string; name: string } {
  const { apiVersion, kind, namespace, name } = binding.resource;
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return { group, kind, namespace, name };
}
