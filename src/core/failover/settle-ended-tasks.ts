// What becomes of the copy on the cluster an eviction task ended for, said truthfully
// (docs/failover.md#graceful-eviction): assessEvictionTasks decides before the render that
// follows it, which may schedule the binding on that cluster again (it is back, and fits); then
// the copy stays, and the decision must not say "its copy is removed" nor allow a deletion.
import type { Binding } from '../model/binding.js';
import type { FailoverDecision, GracefulEvictionTask } from '../model/failover.js';
import { refLabel, refOfKey } from '../model/object-ref.js';

/** Why a task ended. */
export type EndedReason = 'DeletionConfirmed' | 'Timeout' | 'HealthyOnNewClusters' | 'ClusterRecovered';

/** Returns the message of an EvictionDone decision (assessEvictionTasks, and again settleEndedTasks). */
export function doneMessage(
  key: string,
  cluster: string,
  verdict: { reason: string; detail: string },
  copy: string,
  task: { reason: string; producer: string },
): string {
  return `${labelOfKey(key)} from ${cluster}: ${verdict.reason}: ${verdict.detail}; ${copy} (evicted for ${task.reason} by ${task.producer})`;
}

/** Returns what happens to the evicted cluster's copy, in the words of an EvictionDone decision. */
export function copyClause(
  purgeMode: GracefulEvictionTask['purgeMode'],
  kept: boolean,
  cluster = '',
): string {
  if (kept) return `scheduled on ${cluster} again, so its copy stays`;
  return purgeMode === 'Directly' ? 'its copy was removed at eviction' : 'its copy is removed';
}

/** A task assessEvictionTasks dropped, for settleEndedTasks. */
export interface EndedTask {
  key: string;
  task: GracefulEvictionTask;
  reason: EndedReason;
  detail: string;
}

/**
 * Returns the decisions with each EvictionDone decision told what the render that followed did:
 * when it scheduled the binding on the evicted cluster again (the cluster is back and fits, for
 * a task that ended by ClusterRecovered or by Timeout), the copy stays there, and the decision
 * says so (`copyKept`) instead of "its copy is removed", and allows no deletion.
 */
export function settleEndedTasks(
  decisions: readonly FailoverDecision[],
  ended: readonly EndedTask[],
  bindings: readonly Binding[],
): FailoverDecision[] {
  if (ended.length === 0) return [...decisions];
  const byKey = new Map(bindings.map((b) => [b.key, b]));
  return decisions.map((d) => {
    if (d.type !== 'EvictionDone') return d;
    const end = ended.find((e) => e.key === d.binding && e.task.fromCluster === d.cluster);
    const schedule = byKey.get(d.binding ?? '')?.schedule;
    if (!end || schedule?.type !== 'Scheduled' || schedule.failed) return d;
    if (!schedule.clusters.some((c) => c.name === end.task.fromCluster)) return d;
    const cluster = end.task.fromCluster;
    const copy = copyClause(end.task.purgeMode, true, cluster);
    return { ...d, message: doneMessage(end.key, cluster, end, copy, end.task), copyKept: true };
  });
}

// A binding key (refKey) in the words of messages (refLabel).
function labelOfKey(key: string): string {
  const ref = refOfKey(key);
  return ref ? refLabel(ref) : key;
}
