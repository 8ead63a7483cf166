// Karmada's injectReservedLabelState (pkg/controllers/binding/common.go, after the overrides in
// ensureWork): the labels application failover read from the evicted copy's status
// (GracefulEvictionTask.preservedLabelState, core/failover/application-failover.ts) are put on
// the workload where it moved to, so the new copy can pick up where the old one was.
//
// | condition (all must hold)                                             |
// |-----------------------------------------------------------------------|
// | the binding is scheduled on exactly one cluster                       |
// | its last eviction task has purgeMode Directly                         |
// | the cluster is not among that task's clustersBeforeFailover           |
// | the task preserved some labels                                        |
//
// Then each label is merged into the workload's metadata.labels on that cluster (a label of the
// same key is overwritten). When the task is done and dropped, the labels go with it, as the
// Work Karmada writes then has none.
import type { Binding } from '../model/binding.js';
import type { KubeObject } from '../model/kube-object.js';

/** Returns the labels to inject into the binding's workload on `cluster`, or undefined for none. */
export function preservedLabelsFor(
  binding: Pick<Binding, 'schedule' | 'evictionTasks'>,
  cluster: string,
): Readonly<Record<string, string>> | undefined {
  if (binding.schedule.type !== 'Scheduled' || binding.schedule.clusters.length !== 1) return undefined;
  const tasks = binding.evictionTasks ?? [];
  const last = tasks[tasks.length - 1];
  if (!last || last.purgeMode !== 'Directly') return undefined;
  if ((last.clustersBeforeFailover ?? []).includes(cluster)) return undefined;
  const labels = last.preservedLabelState;
  return labels && Object.keys(labels).length > 0 ? labels : undefined;
}

/** Merges the labels into the object's metadata.labels, in place. */
export function injectPreservedLabels(object: KubeObject, labels: Readonly<Record<string, string>>): void {
  object.metadata.labels = { ...object.metadata.labels, ...labels };
}

/** Returns a key of the labels for the render's content keys (sorted, so equal labels give equal keys). */
export function preservedLabelsKey(labels: Readonly<Record<string, string>> | undefined): string {
  if (!labels) return '';
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
