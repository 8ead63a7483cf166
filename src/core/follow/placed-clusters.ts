import type { Binding, TargetCluster } from '../model/binding.js';

/**
 * Returns the clusters a binding's objects are on: the scheduled ones, then the clusters of its
 * eviction tasks that keep their copy (purgeMode Gracefully or Never) with the replicas the task
 * recorded, sorted by name. Karmada's ObtainBindingSpecExistingClusters
 * (pkg/util/helper/binding.go) counts the same clusters as existing: the Work on a cluster being
 * evicted gracefully stays until its task is done, one evicted Directly is an orphan at once.
 *
 * | cluster                                   | objects there | replicas            |
 * |-------------------------------------------|---------------|---------------------|
 * | scheduled                                 | yes           | its share           |
 * | in a task, purgeMode Gracefully or Never  | yes           | the task's (0 none) |
 * | in a task, purgeMode Directly             | no            |                     |
 */
export function placedClusters(binding: Binding): readonly TargetCluster[] {
  const scheduled = binding.schedule.type === 'Scheduled' ? binding.schedule.clusters : noClusters;
  const tasks = binding.evictionTasks;
  if (!tasks || tasks.length === 0) return scheduled;
  const names = new Set(scheduled.map((c) => c.name));
  const kept: TargetCluster[] = [];
  for (const task of tasks) {
    if (task.purgeMode === 'Directly' || names.has(task.fromCluster)) continue;
    names.add(task.fromCluster);
    kept.push({ name: task.fromCluster, replicas: task.replicas ?? 0 });
  }
  if (kept.length === 0) return scheduled;
  return [...scheduled, ...kept].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const noClusters: readonly TargetCluster[] = [];
