// The eviction tasks `gitfleet status` shows per template: read from a binding record's
// `spec.gracefulEvictionTasks` (Karmada's field, work/v1alpha2 ResourceBinding), which the hub
// writes while an evicted cluster keeps its copy. Read defensively: a record written by another
// version, or edited by hand, may lack fields or hold the wrong types; a task without a cluster
// is left out, and a missing field shows as absent, never as an error.
import yaml from 'js-yaml';
import { isMap } from '../model/kube-object.js';

/** One eviction task of a binding record, as shown. */
export interface EvictionTaskView {
  /** The cluster the binding was evicted from. */
  cluster: string;
  reason?: string;
  producer?: string;
  purgeMode?: string;
  /** The task's creationTimestamp (RFC 3339, the hub's clock). */
  since?: string;
  message?: string;
}

/** Returns the eviction tasks of a binding record's text; none when it does not read. */
export function evictionTasksOfRecord(text: string): EvictionTaskView[] {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch {
    return [];
  }
  const spec = isMap(doc) ? doc['spec'] : undefined;
  const tasks = isMap(spec) ? spec['gracefulEvictionTasks'] : undefined;
  if (!Array.isArray(tasks)) return [];
  const views: EvictionTaskView[] = [];
  for (const task of tasks) {
    if (!isMap(task)) continue;
    const cluster = nonEmpty(task['fromCluster']);
    if (cluster === undefined) continue;
    const field = (name: string, value: unknown) => {
      const s = nonEmpty(value);
      return s === undefined ? {} : { [name]: s };
    };
    views.push({
      cluster,
      ...field('reason', task['reason']),
      ...field('producer', task['producer']),
      ...field('purgeMode', task['purgeMode']),
      ...field('since', task['creationTimestamp']),
      ...field('message', task['message']),
    });
  }
  return views;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
