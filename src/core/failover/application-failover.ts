// Karmada's application failover controller (pkg/controllers/applicationfailover/
// rb_application_failover_controller.go, common.go; pkg/util/helper/failover.go): a workload
// unhealthy on a cluster for longer than its policy tolerates is evicted from that cluster.
//
// Per binding with `failover.application` and per scheduled cluster without an eviction task,
// from that cluster's agent report:
//
// | the object in the report                          | reads as   | the timer (FailoverMemory.unhealthySince) |
// |---------------------------------------------------|------------|-------------------------------------------|
// | no report, or a report of an older cluster commit | no news    | kept as it is; no eviction on stale news  |
// | a report from a cluster whose Ready is not True   | no news    | the same: its agent may be gone (point 10 of issue 27) |
// | missing, or not applied                           | Unknown    | cleared                                   |
// | Healthy or Unknown                                | healthy    | cleared                                   |
// | Progressing or Degraded                           | Unhealthy  | started at the first such pass; evicted when now > since + tolerationSeconds |
//
// Why Progressing counts: Karmada's health interpreter (pkg/resourceinterpreter/default/native/
// healthy.go) calls a Deployment unhealthy as soon as its available replicas lag its updated
// ones, which gitfleet's finer health (core/health/deployment-health.ts) reports as Progressing
// until the progress deadline turns it Degraded. A Pod that never becomes ready is Progressing
// for ten minutes first; a normal rollout is Progressing for seconds, and tolerationSeconds is
// what tells the two apart, as in Karmada.
//
// An eviction request carries reason ApplicationFailure, the policy's purgeMode (Gracefully: its
// gracePeriodSeconds; Never: suppressDeletion) and, with statePreservation, the labels read by
// JSONPath from the old copy's reflected status with the clusters before the eviction. A rule
// that cannot be read (a missing key, no status reported) evicts nothing from that cluster: an
// EvictionDeferred decision says why, as Karmada's controller fails the binding's eviction
// and retries. Memory entries of clusters no longer considered are dropped, as Karmada's
// deleteIrrelevantClusters does; the memory is the hub process's, lost on restart as Karmada's.
import type { Binding } from '../model/binding.js';
import type { FailoverBehavior, FailoverDecision } from '../model/failover.js';
import { refKey } from '../model/object-ref.js';
import { policyLabel } from '../model/propagation-policy.js';
import type { AgentReport, ObjectStatusRecord } from '../status/status-branch.js';
import type { EvictionRequest } from './eviction-request.js';
import type { EvictionInput } from './failover-input.js';
import { evaluateJsonPath, parseJsonPath } from '../format/json-path.js';
import { earliestAfter } from './wake-time.js';

type ApplicationFailover = NonNullable<FailoverBehavior['application']>;

/** What the report says of the object on one cluster. */
type Observation =
  { type: 'stale' } | { type: 'healthy' } | { type: 'unhealthy'; record: ObjectStatusRecord };

/** Returns the evictions of applications unhealthy longer than they tolerate. */
export function applicationFailoverRequests(input: EvictionInput): {
  requests: EvictionRequest[];
  decisions: FailoverDecision[];
  wakeAt?: Date;
} {
  const nowMs = input.now.getTime();
  const memory = input.memory.unhealthySince;
  const requests: EvictionRequest[] = [];
  const decisions: FailoverDecision[] = [];
  const wakes: number[] = [];
  const considered = new Set<string>();
  for (const binding of input.bindings) {
    const failover = binding.failover?.application;
    if (!failover || !binding.policy || binding.schedule.type !== 'Scheduled') continue;
    const clusters = binding.schedule.clusters.map((c) => c.name);
    const evicting = evictingClusters(binding, input);
    for (const cluster of clusters) {
      if (evicting.has(cluster)) continue;
      const memoryKey = `${binding.key} ${cluster}`;
      considered.add(memoryKey);
      const seen = observe(binding, cluster, input);
      if (seen.type === 'healthy') memory.delete(memoryKey);
      if (seen.type !== 'unhealthy') continue;
      const since = memory.get(memoryKey) ?? nowMs;
      memory.set(memoryKey, since);
      const due = since + failover.tolerationSeconds * 1000;
      if (nowMs <= due) {
        // Karmada evicts once now is after the deadline: the first such millisecond.
        wakes.push(due + 1);
        continue;
      }
      const made = evictionRequest(binding, cluster, clusters, failover, seen.record, nowMs - since);
      if (made.ok) requests.push(made.request);
      else decisions.push(made.deferred);
    }
  }
  for (const key of [...memory.keys()]) if (!considered.has(key)) memory.delete(key);
  const wakeAt = earliestAfter(nowMs, wakes);
  return { requests, decisions, ...(wakeAt ? { wakeAt } : {}) };
}

// The clusters the binding is already being evicted from (Karmada: ClusterInGracefulEvictionTasks).
function evictingClusters(binding: Binding, input: EvictionInput): Set<string> {
  const tasks = [...(binding.evictionTasks ?? []), ...(input.previous.get(binding.key)?.evictionTasks ?? [])];
  return new Set(tasks.map((t) => t.fromCluster));
}

function observe(binding: Binding, cluster: string, input: EvictionInput): Observation {
  const report: AgentReport | undefined = input.reports.get(cluster);
  if (!report) return { type: 'stale' };
  const head = input.clusterHeads?.get(cluster);
  if (head !== undefined && report.appliedCommit !== head) return { type: 'stale' };
  // A cluster the hub judges not Ready (its agent gone, or its API server) reports old news.
  const ready = input.clusterStatus.get(cluster)?.conditions?.find((c) => c.type === 'Ready');
  if (ready !== undefined && ready.status !== 'True') return { type: 'stale' };
  const record = report.objects.find((o) => refKey(o.ref) === binding.key);
  if (!record || !record.applied) return { type: 'healthy' };
  return record.health === 'Progressing' || record.health === 'Degraded'
    ? { type: 'unhealthy', record }
    : { type: 'healthy' };
}

function evictionRequest(
  binding: Binding,
  cluster: string,
  clusters: readonly string[],
  failover: ApplicationFailover,
  record: ObjectStatusRecord,
  unhealthyMs: number,
): { ok: true; request: EvictionRequest } | { ok: false; deferred: FailoverDecision } {
  const policy = binding.policy ? policyLabel(binding.policy) : '';
  const health = `${record.health}${record.healthMessage ? ` (${record.healthMessage})` : ''}`;
  const subject = `${binding.key} on ${cluster}`;
  const rules = failover.statePreservation ?? [];
  let preserved: Record<string, string> | undefined;
  if (rules.length > 0) {
    const read = preservedLabelState(rules, record, cluster);
    if (!read.ok) {
      return {
        ok: false,
        deferred: {
          type: 'EvictionDeferred',
          cluster,
          binding: binding.key,
          reason: 'StatePreservationFailed',
          message: `${subject}: unhealthy for ${Math.floor(unhealthyMs / 1000)}s, not evicted: ${read.error} (${policy} failover.application.statePreservation)`,
          policy,
        },
      };
    }
    preserved = read.labels;
  }
  return {
    ok: true,
    request: {
      binding: binding.key,
      cluster,
      producer: 'ApplicationFailover',
      reason: 'ApplicationFailure',
      message: `${subject}: ${health} for ${Math.floor(unhealthyMs / 1000)}s, more than the ${failover.tolerationSeconds}s ${policy} tolerates (failover.application)`,
      purgeMode: failover.purgeMode,
      ...(failover.purgeMode === 'Gracefully' && failover.gracePeriodSeconds !== undefined
        ? { gracePeriodSeconds: failover.gracePeriodSeconds }
        : {}),
      ...(failover.purgeMode === 'Never' ? { suppressDeletion: true } : {}),
      ...(preserved ? { preservedLabelState: preserved, clustersBeforeFailover: [...clusters] } : {}),
    },
  };
}

/** Returns the labels the rules read from the old copy's reflected status, or the first rule that fails. */
export function preservedLabelState(
  rules: NonNullable<ApplicationFailover['statePreservation']>,
  record: Pick<ObjectStatusRecord, 'status'>,
  cluster: string,
): { ok: true; labels: Record<string, string> } | { ok: false; error: string } {
  if (!record.status)
    return { ok: false, error: `the application status has not yet been reported by ${cluster}` };
  const labels: Record<string, string> = {};
  for (const rule of rules) {
    const parsed = parseJsonPath(rule.jsonPath);
    const value = parsed.ok ? evaluateJsonPath(parsed.parts, record.status) : parsed;
    if (!value.ok)
      return { ok: false, error: `${rule.aliasLabelName}: jsonPath ${rule.jsonPath}: ${value.error}` };
    labels[rule.aliasLabelName] = value.value;
  }
  return { ok: true, labels };
}
