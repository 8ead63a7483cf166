// Karmada's taint manager (pkg/controllers/cluster/taint_manager.go, with the helpers of
// pkg/util/helper/taint.go and the pacing of eviction_worker.go / dynamic_rate_limiter.go):
// which bindings a NoExecute taint evicts from which clusters (docs/failover.md#noexecute-eviction).
// Only with --enable-no-execute-taint-eviction (off by default, as in Karmada v1.14+).
//
// For each binding of the first render and each cluster it is scheduled on that has NoExecute
// taints (its spec taints and the ones the hub keeps, cluster-taints.ts), with the tolerations of
// the binding's placement (Karmada reads the applied placement, which is the binding's here):
//
//   | the NoExecute taints                                   | eviction                                 |
//   |--------------------------------------------------------|------------------------------------------|
//   | one is tolerated by no toleration                      | now                                      |
//   | all tolerated; the tolerations used have tolerationSeconds | at min(timeAdded + tolerationSeconds) over the used tolerations and the taints each tolerates: now when that has come, else wakeAt then |
//   | all tolerated, no used toleration has tolerationSeconds | never                                   |
//
// A taint without timeAdded (a NoExecute taint written in the Cluster's spec: Git has no time
// for it) counts in no toleration time, as in Karmada's GetMinTolerationTimeWithCurrentTime;
// so it evicts at once what does not tolerate it, and never what tolerates it.
//
// The tolerations are the placement's plus Karmada's default not-ready and unreachable NoExecute
// ones it lacks (default-tolerations.ts: 300 s each by default), so a cluster that goes quiet for
// a moment keeps its workloads.
//
// Not evicted: a cluster the binding already has an eviction task for (the task is the
// eviction under way), and followers (bindings without a policy: dependencies, HPAs,
// Namespaces), which the render places on their leaders' clusters.
//
// The request's purgeMode is the binding's failover.cluster.purgeMode when the policy sets
// failover.cluster (Gracefully when empty), else --no-execute-taint-eviction-purge-mode
// (Karmada's getPurgeMode). statePreservation of failover.cluster is not read yet.
//
// Pacing: Karmada's three eviction workers each wait 1/--resource-eviction-rate seconds after an
// eviction (1800 s at rate 0). gitfleet evicts a burst of at most three once that interval has
// passed since its last eviction (FailoverMemory.lastEvictionAt, the hub process's memory: a
// restarted hub may evict at once); the rest are deferred (an EvictionDeferred decision) with
// wakeAt when the next burst may go. When most of the fleet is not Ready (fleet-disruption.ts)
// nothing is evicted, or at the secondary rate in a large fleet, and a FleetDisruption decision
// (the bindings commit's Gitfleet-Fleet-Disruption trailer) says so when the state changes.
import type { Binding } from '../model/binding.js';
import type { Cluster, Taint, Toleration } from '../model/cluster.js';
import type { FailoverDecision, PurgeMode, TimedTaint } from '../model/failover.js';
import { refLabel } from '../model/object-ref.js';
import { policyLabel } from '../model/propagation-policy.js';
import { formatTime, parseTime, dateOf } from '../model/rfc3339.js';
import { formatTaint, toleratesTaint } from '../schedule/find-untolerated-taint.js';
import type { EvictionRequest } from './eviction-request.js';
import type { EvictionInput } from './failover-input.js';
import { withDefaultTolerations } from './default-tolerations.js';
import { describeFleetDisruption, judgeFleetDisruption, type FleetDisruption } from './fleet-disruption.js';

/** Karmada's taint manager runs three eviction workers (ConcurrentReconciles: 3, cmd/controller-manager/app/controllermanager.go). */
export const EVICTION_WORKERS = 3;
/** Karmada's maxEvictionDelay: the pace at --resource-eviction-rate 0. */
const MAX_EVICTION_DELAY_MS = 1_800_000;

/** Returns the evictions NoExecute taints ask for now, the ones deferred, and when to look again. */
export function taintEvictionRequests(input: EvictionInput): {
  requests: EvictionRequest[];
  decisions: FailoverDecision[];
  wakeAt?: Date;
} {
  if (!input.settings.enableNoExecuteTaintEviction) return { requests: [], decisions: [] };
  const now = input.now.getTime();
  const disruption = fleetDisruptionNow(input);
  const clusters = new Map(input.fleet.clusters.map((c) => [c.name, c]));
  const due: EvictionRequest[] = [];
  let wake: number | undefined;
  for (const binding of input.bindings) {
    if (binding.policy === undefined || binding.schedule.type !== 'Scheduled') continue;
    const evicting = new Set(
      [...(binding.evictionTasks ?? []), ...(input.previous.get(binding.key)?.evictionTasks ?? [])].map(
        (t) => t.fromCluster,
      ),
    );
    for (const target of binding.schedule.clusters) {
      const cluster = clusters.get(target.name);
      if (cluster === undefined || evicting.has(target.name)) continue;
      const taints = noExecuteTaints(cluster, input.clusterTaints.get(target.name));
      const tolerations = withDefaultTolerations(binding.placement.clusterTolerations, input.settings);
      const verdict = judgeNoExecute(taints, tolerations, now);
      if (verdict.type === 'tolerated') continue;
      if (verdict.type === 'later') {
        wake = Math.min(wake ?? verdict.at, verdict.at);
        continue;
      }
      due.push(requestOf(binding, target.name, verdict.why, input.settings.noExecuteTaintEvictionPurgeMode));
    }
  }
  // A disrupted fleet evicts nothing (rate 0) or slowly; the verdict that ends it asks a pass.
  const paced =
    disruption.evictions.rate > 0 || disruption.evictions.state === 'normal'
      ? pace(due, input, now, disruption.evictions.rate)
      : { requests: [], decisions: [] };
  if (paced.nextAt !== undefined) wake = Math.min(wake ?? paced.nextAt, paced.nextAt);
  return {
    requests: paced.requests,
    decisions: [...disruption.decisions, ...paced.decisions],
    ...(wake !== undefined ? { wakeAt: dateOf(wake) } : {}),
  };
}

/** What the NoExecute taints of one cluster mean for one binding's tolerations. */
export type NoExecuteVerdict =
  { type: 'tolerated' } | { type: 'later'; at: number } | { type: 'evict'; why: string };

/**
 * Karmada's needEviction for one binding on one cluster (GetMatchingTolerations, then
 * GetMinTolerationTimeWithCurrentTime): `why` names the taint and how it was (not) tolerated.
 */
export function judgeNoExecute(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  now: number,
): NoExecuteVerdict {
  if (taints.length === 0) return { type: 'tolerated' };
  const used: Toleration[] = [];
  for (const taint of taints) {
    const toleration = tolerations.find((t) => toleratesTaint(t, taint));
    if (toleration === undefined)
      return { type: 'evict', why: `taint ${formatTaint(taint)} is not tolerated` };
    used.push(toleration);
  }
  let first: { at: number; taint: Taint; seconds: number } | undefined;
  for (const toleration of used) {
    if (toleration.tolerationSeconds === undefined) continue;
    for (const taint of taints) {
      const added = 'timeAdded' in taint ? parseTime(String(taint.timeAdded)) : undefined;
      if (added === undefined || !toleratesTaint(toleration, taint)) continue;
      const at = added + toleration.tolerationSeconds * 1000;
      if (first === undefined || at < first.at) first = { at, taint, seconds: toleration.tolerationSeconds };
    }
  }
  if (first === undefined) return { type: 'tolerated' };
  if (first.at > now) return { type: 'later', at: first.at };
  const since = formatTime(first.at - first.seconds * 1000);
  return {
    type: 'evict',
    why: `taint ${formatTaint(first.taint)} was tolerated for ${first.seconds}s from ${since}`,
  };
}

// The cluster's NoExecute taints: its spec taints, then the hub's kept ones whose key and
// effect no spec taint has (as effectiveTaints adds them).
function noExecuteTaints(cluster: Cluster, kept: readonly TimedTaint[] | undefined): Taint[] {
  const taints: Taint[] = cluster.taints.filter((t) => t.effect === 'NoExecute');
  for (const taint of kept ?? []) {
    if (taint.effect !== 'NoExecute') continue;
    if (!taints.some((t) => t.key === taint.key && t.effect === taint.effect)) taints.push(taint);
  }
  return taints;
}

function requestOf(
  binding: Binding,
  cluster: string,
  why: string,
  defaultPurgeMode: 'Directly' | 'Gracefully',
): EvictionRequest {
  const policy = binding.policy ? policyLabel(binding.policy) : 'no policy';
  const purgeMode: PurgeMode = binding.failover?.cluster
    ? binding.failover.cluster.purgeMode || 'Gracefully'
    : defaultPurgeMode;
  return {
    binding: binding.key,
    cluster,
    producer: 'TaintManager',
    reason: 'TaintUntolerated',
    message: `${why} on ${cluster} by ${refLabel(binding.resource)} (${policy})`,
    purgeMode,
  };
}

// The rate limit: a burst of up to EVICTION_WORKERS once 1/rate seconds have passed since the
// last eviction; the rest deferred until the next burst may go.
function pace(
  due: readonly EvictionRequest[],
  input: EvictionInput,
  now: number,
  rate: number,
): { requests: EvictionRequest[]; decisions: FailoverDecision[]; nextAt?: number } {
  if (due.length === 0) return { requests: [], decisions: [] };
  const interval = rate > 0 ? Math.max(1, Math.round(1000 / rate)) : MAX_EVICTION_DELAY_MS;
  const last = input.memory.lastEvictionAt;
  const open = last === undefined || last + interval <= now;
  const requests = open ? due.slice(0, EVICTION_WORKERS) : [];
  if (requests.length > 0) input.memory.lastEvictionAt = now;
  const deferred = due.slice(requests.length);
  if (deferred.length === 0) return { requests, decisions: [] };
  const nextAt = (open ? now : last!) + interval;
  const decisions: FailoverDecision[] = deferred.map((r) => ({
    type: 'EvictionDeferred',
    binding: r.binding,
    cluster: r.cluster,
    reason: 'RateLimited',
    message: `${r.message}: eviction deferred to ${formatTime(nextAt)} (${rate === input.settings.resourceEvictionRate ? '--resource-eviction-rate' : '--secondary-resource-eviction-rate'} ${rate}/s)`,
  }));
  return { requests, decisions, nextAt };
}

// The fleet's disruption state (fleet-disruption.ts), and a FleetDisruption decision when it
// differs from the one this hub process last saw (a restarted hub says so of a disrupted fleet).
function fleetDisruptionNow(input: EvictionInput): {
  evictions: FleetDisruption;
  decisions: FailoverDecision[];
} {
  const names = input.fleet.clusters.map((c) => c.name);
  const evictions = judgeFleetDisruption(names, input.clusterStatus, input.settings);
  const before = input.memory.fleetDisruption ?? 'normal';
  input.memory.fleetDisruption = evictions.state;
  if (before === evictions.state) return { evictions, decisions: [] };
  const message =
    evictions.state === 'normal'
      ? `the fleet is no longer disrupted (${evictions.notReady.length} of ${evictions.counted} clusters not Ready): NoExecute evictions resume at --resource-eviction-rate`
      : describeFleetDisruption(evictions, input.settings);
  const reason = evictions.state === 'normal' ? 'FleetRecovered' : 'FleetDisrupted';
  return { evictions, decisions: [{ type: 'FleetDisruption', reason, message }] };
}
