// What the next pass will read back from a binding's record (parseBindingRecord of
// bindingRecord), known without writing and parsing the YAML: parsing 2,000 records takes
// ~0.3 ms each, so a running hub remembers this instead. A test keeps the two in step.
import type { Binding, PreviousBinding, TargetCluster } from '../model/binding.js';

/** Returns the previous binding a binding's record holds, or null for a record without a claim. */
export function previousBindingOf(binding: Binding): PreviousBinding | null {
  if (!binding.policy) return null;
  const schedule = binding.schedule;
  return {
    key: binding.key,
    policy: { kind: binding.policy.kind, namespace: binding.policy.namespace, name: binding.policy.name },
    clusters: schedule.type === 'Scheduled' ? plainTargets(schedule.clusters) : [],
    ...(schedule.type === 'Scheduled' && schedule.affinityName
      ? { affinityName: schedule.affinityName }
      : {}),
    ...(binding.templateHash !== undefined
      ? {
          held: {
            templateHash: binding.templateHash,
            placement: binding.placement,
            propagateDeps: binding.propagateDeps,
            conflictResolution: binding.conflictResolution,
            preserveResourcesOnDeletion: binding.preserveResourcesOnDeletion,
          },
        }
      : {}),
    ...(binding.evictionTasks && binding.evictionTasks.length > 0
      ? { evictionTasks: binding.evictionTasks }
      : {}),
    ...(binding.rescheduleTriggeredAt !== undefined
      ? { rescheduleTriggeredAt: binding.rescheduleTriggeredAt }
      : {}),
    ...(binding.lastScheduledTime !== undefined ? { lastScheduledTime: binding.lastScheduledTime } : {}),
    ...(binding.appliedPlacement !== undefined ? { appliedPlacement: binding.appliedPlacement } : {}),
    ...(schedule.type === 'Scheduled' && schedule.refused ? { refused: schedule.refused } : {}),
  };
}

// The binding's own list when it holds only names and replicas (it is never changed once
// scheduled, so the placement shares it and the hub memo keeps it once); else a copy of those.
function plainTargets(clusters: TargetCluster[]): TargetCluster[] {
  const plain = clusters.every((c) => Object.keys(c).length === 2 && 'name' in c && 'replicas' in c);
  return plain ? clusters : clusters.map((c) => ({ name: c.name, replicas: c.replicas }));
}
