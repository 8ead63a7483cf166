// Graceful eviction (docs/failover.md#graceful-eviction): a binding leaves a cluster in two
// steps, as Karmada's do.
//
//   1. applyEvictions (Karmada's GracefulEvictCluster, pkg/apis/work/v1alpha2/binding_types_helper.go):
//      the cluster leaves the binding's previous clusters, so the render that follows places its
//      replicas elsewhere, and a graceful eviction task remembers it (in the binding's record,
//      spec.gracefulEvictionTasks) together with how its copy goes away.
//   2. assessEvictionTasks (Karmada's graceful eviction controller,
//      pkg/controllers/gracefuleviction/evictiontask.go assessEvictionTasks): pass after pass,
//      each task is kept or dropped; while it is kept, the copy stays on the cluster it was evicted
//      from (Gracefully, Never; core/follow/placed-clusters.ts) and the scheduler does not put
//      the binding back there (the ClusterEviction filter).
import { refLabel, refOfKey } from '../model/object-ref.js';
import type { Binding, PreviousBinding } from '../model/binding.js';
import type { FailoverDecision, FailoverSettings, GracefulEvictionTask } from '../model/failover.js';
import { formatTime, parseTime, dateOf } from '../model/rfc3339.js';
import { aggregateBindingStatus } from '../status/aggregate-status.js';
import type { EvictionRequest } from './eviction-request.js';
import type { EvictionInput } from './failover-input.js';
import { copyClause, doneMessage, type EndedReason, type EndedTask } from './settle-ended-tasks.js';

/**
 * Returns the previous bindings with the requested evictions applied, and one Evicted decision
 * per eviction. Per request, on the binding it names:
 *
 * | the binding                                 | what happens                                      |
 * |---------------------------------------------|---------------------------------------------------|
 * | unknown, or the cluster not in its clusters | nothing (Karmada: no-op)                          |
 * | has the cluster, and a task for it already  | the cluster leaves its clusters; no second task   |
 * | has the cluster                             | the cluster leaves its clusters; a task is added  |
 *
 * The task holds the request's purgeMode, reason, message, producer, gracePeriodSeconds,
 * preservedLabelState and clustersBeforeFailover, the replicas the binding had there (when
 * > 0), suppressDeletion (true for purgeMode Never unless the request says otherwise) and the
 * hub's time as creationTimestamp.
 */
export function applyEvictions(
  previous: ReadonlyMap<string, PreviousBinding>,
  requests: readonly EvictionRequest[],
  now: Date,
): { previous: Map<string, PreviousBinding>; changed: boolean; decisions: FailoverDecision[] } {
  const result = new Map(previous);
  const decisions: FailoverDecision[] = [];
  for (const request of requests) {
    const binding = result.get(request.binding);
    const evicted = binding?.clusters.find((c) => c.name === request.cluster);
    if (!binding || !evicted) continue;
    const tasks = binding.evictionTasks ?? [];
    const hasTask = tasks.some((t) => t.fromCluster === request.cluster);
    result.set(request.binding, {
      ...binding,
      clusters: binding.clusters.filter((c) => c.name !== request.cluster),
      ...(hasTask ? {} : { evictionTasks: [...tasks, taskOf(request, evicted.replicas, now)] }),
    });
    decisions.push(evictedDecision(request));
  }
  return { previous: result, changed: decisions.length > 0, decisions };
}

function taskOf(request: EvictionRequest, replicas: number, now: Date): GracefulEvictionTask {
  const suppressDeletion = request.suppressDeletion ?? (request.purgeMode === 'Never' ? true : undefined);
  return {
    fromCluster: request.cluster,
    purgeMode: request.purgeMode,
    ...(replicas > 0 ? { replicas } : {}),
    reason: request.reason,
    message: request.message,
    producer: request.producer,
    ...(request.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: request.gracePeriodSeconds } : {}),
    ...(suppressDeletion !== undefined ? { suppressDeletion } : {}),
    ...(request.preservedLabelState ? { preservedLabelState: { ...request.preservedLabelState } } : {}),
    ...(request.clustersBeforeFailover
      ? { clustersBeforeFailover: [...request.clustersBeforeFailover] }
      : {}),
    creationTimestamp: formatTime(now.getTime()),
  };
}

function evictedDecision(request: EvictionRequest): FailoverDecision {
  return {
    type: 'Evicted',
    cluster: request.cluster,
    binding: request.binding,
    reason: request.reason,
    message: `${labelOfKey(request.binding)} from ${request.cluster}: ${request.reason} (${request.producer}, purgeMode ${request.purgeMode}): ${request.message}`,
  };
}

/** Why a task was dropped. */
type Verdict = { keep: true; expiresAt?: number } | { keep: false; reason: EndedReason; detail: string };

/**
 * Returns the previous bindings with the finished eviction tasks dropped, one EvictionDone
 * decision per dropped task, and when the next kept task times out. Per task, the first rule
 * that holds decides (Karmada's assessSingleTask):
 *
 * | task                                                       | verdict                          |
 * |------------------------------------------------------------|----------------------------------|
 * | no readable creationTimestamp                              | kept, stamped with the hub's time (Karmada stamps a new task) |
 * | suppressDeletion true                                      | kept: a person decides (no timeout) |
 * | suppressDeletion false                                     | dropped, DeletionConfirmed       |
 * | creationTimestamp + (gracePeriodSeconds or --graceful-eviction-timeout) ≤ now | dropped, Timeout |
 * | the binding's schedule has seen the eviction, and every scheduled cluster is Ready and reports the object applied and Healthy at its branch head | dropped, HealthyOnNewClusters |
 * | a TaintManager task; no cluster fits the binding, and the evicted cluster is Ready and fails only the ClusterEviction filter | dropped, ClusterRecovered |
 * | otherwise                                                  | kept                             |
 *
 * ClusterRecovered is gitfleet's: in Karmada a binding no other cluster could take fails to
 * schedule, so its schedulerObservedGeneration lags and the task waits for its timeout while
 * the ClusterEviction filter keeps the cluster out, though the cluster is back. Here the
 * outage ends the eviction: the render that follows schedules the binding on that cluster again,
 * where its copy never left (settle-ended-tasks.ts says so in the decision). A report from a cluster
 * that is not Ready (the monitor's verdict, or its agent's word) never ends a task.
 *
 * "Has seen the eviction" is Karmada's schedulerObservedGeneration == generation with a True
 * Scheduled condition: here, the binding of the render (input.bindings) was scheduled without
 * failing and no longer has the evicted cluster. Karmada drops a timed-out task only after
 * the timeout (now > end); here at it (now ≥ end), so that a kept task's end is strictly after
 * now and can be the pass's wakeAt.
 */
export function assessEvictionTasks(input: EvictionInput): {
  previous: Map<string, PreviousBinding>;
  changed: boolean;
  decisions: FailoverDecision[];
  /** The dropped tasks, for settleEndedTasks once the render that follows is known. */
  ended: EndedTask[];
  wakeAt?: Date;
} {
  const now = input.now.getTime();
  const bindings = new Map(input.bindings.map((b) => [b.key, b]));
  const result = new Map(input.previous);
  const decisions: FailoverDecision[] = [];
  const ended: EndedTask[] = [];
  let changed = false;
  let wakeAt: number | undefined;
  for (const [key, previous] of input.previous) {
    const tasks = previous.evictionTasks;
    if (!tasks || tasks.length === 0) continue;
    const kept: GracefulEvictionTask[] = [];
    for (const recorded of tasks) {
      const stamped = parseTime(recorded.creationTimestamp) === undefined;
      const task = stamped ? { ...recorded, creationTimestamp: formatTime(now) } : recorded;
      const verdict = stamped
        ? keepUntilTimeout(task, now, input.settings)
        : assessTask(task, input, bindings.get(key));
      if (verdict.keep) {
        kept.push(task);
        if (verdict.expiresAt !== undefined && (wakeAt === undefined || verdict.expiresAt < wakeAt))
          wakeAt = verdict.expiresAt;
      } else {
        decisions.push(doneDecision(key, task, verdict));
        ended.push({ key, task, reason: verdict.reason, detail: verdict.detail });
      }
      changed ||= stamped || !verdict.keep;
    }
    if (kept.length === tasks.length && kept.every((t, i) => t === tasks[i])) continue;
    const { evictionTasks: _dropped, ...rest } = previous;
    result.set(key, kept.length > 0 ? { ...rest, evictionTasks: kept } : rest);
  }
  return {
    previous: result,
    changed,
    decisions,
    ended,
    ...(wakeAt !== undefined ? { wakeAt: dateOf(wakeAt) } : {}),
  };
}

function assessTask(task: GracefulEvictionTask, input: EvictionInput, binding: Binding | undefined): Verdict {
  if (task.suppressDeletion === true) return { keep: true };
  if (task.suppressDeletion === false) {
    return { keep: false, reason: 'DeletionConfirmed', detail: 'suppressDeletion was set to false' };
  }
  const seconds = timeoutSeconds(task, input.settings);
  const end = parseTime(task.creationTimestamp)! + seconds * 1000;
  if (input.now.getTime() >= end) {
    return {
      keep: false,
      reason: 'Timeout',
      detail: `the grace period of ${seconds}s since ${task.creationTimestamp} ended`,
    };
  }
  const healthy = binding ? healthyClusters(binding, task, input) : undefined;
  if (healthy) return { keep: false, reason: 'HealthyOnNewClusters', detail: healthy };
  if (binding && hasRecovered(binding, task, input)) {
    return {
      keep: false,
      reason: 'ClusterRecovered',
      detail: `${task.fromCluster} is Ready and fits the placement again, and no other cluster took the workload`,
    };
  }
  return { keep: true, expiresAt: end };
}

// The binding fits no cluster (a filter failure, which Karmada's scheduler leaves unscheduled)
// and the evicted cluster, Ready, is kept out by its eviction task alone.
function hasRecovered(binding: Binding, task: GracefulEvictionTask, input: EvictionInput): boolean {
  // Only the cluster's own failure ends with the cluster: an application that failed there is
  // not mended by its cluster being Ready (it would be placed back and evicted again).
  if (task.producer !== 'TaintManager') return false;
  const schedule = binding.schedule;
  if (schedule.type !== 'NoFit' || schedule.keepPrevious || schedule.reason !== undefined) return false;
  if (!isReady(input, task.fromCluster)) return false;
  return schedule.diagnosis.some((d) => d.cluster === task.fromCluster && d.onlyEviction === true);
}

function isReady(input: EvictionInput, cluster: string): boolean {
  return input.clusterStatus.get(cluster)?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
}

function keepUntilTimeout(task: GracefulEvictionTask, now: number, settings: FailoverSettings): Verdict {
  if (task.suppressDeletion !== undefined) return { keep: true };
  return { keep: true, expiresAt: now + timeoutSeconds(task, settings) * 1000 };
}

function timeoutSeconds(task: GracefulEvictionTask, settings: FailoverSettings): number {
  return task.gracePeriodSeconds ?? settings.gracefulEvictionTimeoutSeconds;
}

// Karmada's hasScheduled && allScheduledResourceInHealthyState: returns the words naming the
// healthy clusters, or undefined while the schedule has not seen the eviction or a scheduled
// cluster is not (yet) applied and Healthy at the commit the hub rendered for it.
function healthyClusters(
  binding: Binding,
  task: GracefulEvictionTask,
  input: EvictionInput,
): string | undefined {
  const schedule = binding.schedule;
  if (schedule.type !== 'Scheduled' || schedule.failed) return undefined;
  if (schedule.clusters.some((c) => c.name === task.fromCluster)) return undefined;
  const heads = input.clusterHeads;
  const status = aggregateBindingStatus({
    binding,
    reports: input.reports,
    ...(heads ? { renderedCommitOf: (cluster: string) => heads.get(cluster) } : {}),
  });
  if (!status.aggregatedStatus.every((s) => s.applied && s.health === 'Healthy')) return undefined;
  // A report from a cluster the hub does not judge Ready is old news (its agent may be gone).
  if (!status.aggregatedStatus.every((s) => isReady(input, s.clusterName))) return undefined;
  const names = status.aggregatedStatus.map((s) => s.clusterName);
  return names.length > 0 ? `applied and Healthy on ${names.join(', ')}` : 'scheduled on no cluster';
}

function doneDecision(
  key: string,
  task: GracefulEvictionTask,
  verdict: Extract<Verdict, { keep: false }>,
): FailoverDecision {
  return {
    type: 'EvictionDone',
    cluster: task.fromCluster,
    binding: key,
    reason: verdict.reason,
    message: doneMessage(key, task.fromCluster, verdict, copyClause(task.purgeMode, false), task),
  };
}

// A binding key (refKey) in the words of messages (refLabel).
function labelOfKey(key: string): string {
  const ref = refOfKey(key);
  return ref ? refLabel(ref) : key;
}
