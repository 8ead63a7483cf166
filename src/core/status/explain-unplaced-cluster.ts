// A template on a cluster it is not placed on, explained, first that holds:
//
// | the facts                                                          | reason                 |
// |--------------------------------------------------------------------|------------------------|
// | a graceful eviction task of the binding names the cluster          | Evicting               |
// | the scheduler refused it (status.refusedClusters)                  | the filter's reason (explain-refusal.ts) |
// | its agent still reports the object                                 | PendingRemoval         |
// | a follower (dependency, scale target, namespace)                   | NotSelected: goes where what needs it goes |
// | otherwise                                                          | NotSelected            |
import type { ClusterDiagnosis } from '../model/binding.js';
import type { GracefulEvictionTask } from '../model/failover.js';
import type { ObjectRef } from '../model/object-ref.js';
import { formatTime, parseTime } from '../model/rfc3339.js';
import type { BindingView } from '../publish/binding-record.js';
import { explainRefusal } from './explain-refusal.js';
import type { ClusterExplanation, EvictionHold } from './explanation.js';
import type { ObjectStatusRecord } from './status-branch.js';

/** What is known of a template on one cluster it is not placed on. */
export interface UnplacedFacts {
  cluster: string;
  template: string;
  resource: ObjectRef;
  origin: BindingView['origin'];
  /** `PropagationPolicy/ns/name`, absent for followers. */
  policy?: string;
  refusal?: ClusterDiagnosis;
  evictionTask?: GracefulEvictionTask;
  /** The agent's record of the object there, when it still reports it. */
  record?: ObjectStatusRecord;
  /** The hub's --graceful-eviction-timeout, for a task without its own grace period (Karmada's default 600). */
  gracefulEvictionTimeoutSeconds: number;
}

/** Returns the explanation of a template on a cluster it is not placed on. */
export function explainUnplacedCluster(facts: UnplacedFacts): ClusterExplanation {
  const { cluster } = facts;
  if (facts.evictionTask) return evictionOf(facts, facts.evictionTask);
  if (facts.refusal)
    return explainRefusal(facts.refusal, {
      resource: facts.resource,
      ...(facts.policy ? { policy: facts.policy } : {}),
    });
  if (facts.record)
    return {
      cluster,
      placed: false,
      reason: 'PendingRemoval',
      message: `${cluster} still runs it though it is no longer placed there: its agent prunes it at its next apply, unless the policy preserves resources on deletion`,
      applied: facts.record.applied,
      health: facts.record.health,
    };
  return { cluster, placed: false, reason: 'NotSelected', message: notSelectedWords(facts) };
}

function notSelectedWords(facts: UnplacedFacts): string {
  const { cluster } = facts;
  switch (facts.origin) {
    case 'dependency':
      return `${cluster}: not placed: it goes only where the templates that need it go`;
    case 'scaleTarget':
      return `${cluster}: not placed: it goes only where its scale target goes`;
    case 'namespace':
      return `${cluster}: not placed: no template there uses the namespace`;
    default:
      return `${cluster}: not chosen by ${facts.policy ?? 'the placement'} (its clusterAffinity, spread constraints or replica division)`;
  }
}

function evictionOf(facts: UnplacedFacts, task: GracefulEvictionTask): ClusterExplanation {
  const until = untilOf(task, facts.gracefulEvictionTimeoutSeconds);
  const eviction: EvictionHold = {
    reason: task.reason,
    producer: task.producer,
    purgeMode: task.purgeMode,
    since: task.creationTimestamp,
    ...(until ? { until } : {}),
  };
  const why = `${task.reason || 'evicted'}${task.producer ? ` by ${task.producer}` : ''}${task.message ? `: ${task.message}` : ''}`;
  return {
    cluster: facts.cluster,
    placed: false,
    reason: 'Evicting',
    message: `${facts.cluster}: evicted since ${seconds(task.creationTimestamp) || 'this pass'} (${why}); ${copyWords(task, until)}`,
    eviction,
    ...(facts.record ? { applied: facts.record.applied, health: facts.record.health } : {}),
  };
}

// What becomes of the copy (docs/failover.md#graceful-eviction), as Karmada's purge modes say.
function copyWords(task: GracefulEvictionTask, until: string | undefined): string {
  if (task.purgeMode === 'Directly') return 'its copy was removed at eviction';
  if (task.suppressDeletion === true || task.purgeMode === 'Never')
    return 'its copy stays until a person decides (suppressDeletion)';
  return `its copy stays until the workload is Healthy on the clusters that replace it${until ? `, at the latest until ${seconds(until)}` : ''}`;
}

function untilOf(task: GracefulEvictionTask, timeoutSeconds: number): string | undefined {
  if (task.purgeMode !== 'Gracefully' || task.suppressDeletion !== undefined) return undefined;
  const since = parseTime(task.creationTimestamp);
  if (since === undefined) return undefined;
  return formatTime(since + (task.gracePeriodSeconds ?? timeoutSeconds) * 1000);
}

// A time as people read it in a sentence: RFC 3339 to the second (the record keeps its fraction).
function seconds(time: string): string {
  return time.replace(/\.\d+(?=Z$)/, '');
}
