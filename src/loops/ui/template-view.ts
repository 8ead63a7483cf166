// The template page's document: the template's binding record (policy, placement, replicas per
// cluster), its status row on every cluster, its rendered file on every cluster branch (Secrets
// with every value redacted, by core/review/redact-secret-pair.ts as `gitfleet diff` does) and
// its history (what `gitfleet log <object>` prints, read by the function the command uses).
import type { BindingView } from '../../core/publish/binding-record.js';
import { objectPath } from '../../core/format/object-path.js';
import { refLabel } from '../../core/model/object-ref.js';
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
  binding: Omit<BindingView, 'aggregatedStatus'>;
  rows: StatusRow[];
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
  return {
    label,
    key: binding.key,
    binding: record,
    rows: input.rows.filter((r) => r.template === label),
    rendered,
    history,
  };
}

function specOf(binding: BindingView): { group: string; kind: string; namespace: string; name: string } {
  const { apiVersion, kind, namespace, name } = binding.resource;
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return { group, kind, namespace, name };
}
