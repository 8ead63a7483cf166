// A binding's graceful eviction tasks as its record holds them: Karmada's
// spec.gracefulEvictionTasks (pkg/apis/work/v1alpha2/binding_types.go GracefulEvictionTask),
// field for field, so a Karmada user reads the record as they read a ResourceBinding.
import type { GracefulEvictionTask, PurgeMode } from '../model/failover.js';
import { isMap } from '../model/kube-object.js';

const purgeModes: readonly PurgeMode[] = ['Directly', 'Gracefully', 'Never'];

/** Returns the task as a record field (only the fields it has). */
export function evictionTaskField(task: GracefulEvictionTask): Record<string, unknown> {
  return { ...task };
}

/**
 * Returns the tasks a record's spec.gracefulEvictionTasks holds. Read leniently, because what a
 * task keeps is a copy on a cluster and a task read wrongly deletes it:
 *
 * | field                 | absent or not readable                                        |
 * |-----------------------|---------------------------------------------------------------|
 * | fromCluster           | the entry is no task: skipped                                 |
 * | purgeMode             | Gracefully (Karmada's default): the copy stays until assessed |
 * | creationTimestamp     | '' : the next assessment stamps it, as Karmada does a new task |
 * | reason, producer      | ''                                                            |
 * | the optional fields   | absent                                                        |
 */
export function parseEvictionTasks(value: unknown): GracefulEvictionTask[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isMap).flatMap((item): GracefulEvictionTask[] => {
    if (typeof item.fromCluster !== 'string' || item.fromCluster === '') return [];
    const labels = isMap(item.preservedLabelState) ? stringValues(item.preservedLabelState) : undefined;
    const before = Array.isArray(item.clustersBeforeFailover)
      ? item.clustersBeforeFailover.filter((c): c is string => typeof c === 'string')
      : undefined;
    return [
      {
        fromCluster: item.fromCluster,
        purgeMode: purgeModes.find((m) => m === item.purgeMode) ?? 'Gracefully',
        ...(isCount(item.replicas) ? { replicas: item.replicas } : {}),
        reason: typeof item.reason === 'string' ? item.reason : '',
        ...(typeof item.message === 'string' ? { message: item.message } : {}),
        producer: typeof item.producer === 'string' ? item.producer : '',
        ...(isCount(item.gracePeriodSeconds) ? { gracePeriodSeconds: item.gracePeriodSeconds } : {}),
        ...(typeof item.suppressDeletion === 'boolean' ? { suppressDeletion: item.suppressDeletion } : {}),
        ...(labels ? { preservedLabelState: labels } : {}),
        ...(before ? { clustersBeforeFailover: before } : {}),
        creationTimestamp: typeof item.creationTimestamp === 'string' ? item.creationTimestamp : '',
      },
    ];
  });
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function stringValues(map: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) if (typeof v === 'string') out[k] = v;
  return out;
}
