// The taints the hub keeps on each registered cluster, before the render (docs/failover.md#taints),
// as two Karmada controllers keep them in a Cluster's spec.taints:
//
//   1. the cluster controller's taintClusterByCondition (pkg/controllers/cluster/cluster_controller.go):
//      the not-ready / unreachable NoSchedule taints from the Ready condition
//      (model/condition-taints.ts, with gitfleet's difference for a cluster with no Ready condition);
//   2. then each ClusterTaintPolicy (pkg/controllers/taint/clustertaintpolicy_controller.go), in
//      file order (Karmada: oldest creationTimestamp first; a fleet repo has no creation times):
//
//      | the policy                                   | does                                            |
//      |----------------------------------------------|-------------------------------------------------|
//      | targetClusters set and not matching           | nothing                                         |
//      | addOnConditions all match                     | adds each of its taints whose key+effect is absent (timeAdded now) |
//      | then removeOnConditions all match             | removes each of its taints by key+effect        |
//
//      A condition list matches when it is not empty and every entry does: the cluster has a
//      condition of that type whose status is In (NotIn) statusValues; a type the cluster has no
//      condition of never matches, with either operator.
//
// Nothing else removes a taint: not a policy deleted, changed or no longer targeting the
// cluster. That is why the taints are recorded, each with the time it was added, in
// `.gitfleet/failover/clusters/<cluster>.yaml` of the bindings branch: the hub reads them back
// every pass, and a NoExecute taint's timeAdded is where tolerationSeconds count from
// (taint-evictions.ts). The file of a cluster with no taint is left out (so removed), as is
// the file of a cluster no longer registered.
//
// gitfleet's spec taints are Git's (a Cluster's spec in the fleet repo), so the hub never removes
// one; a taint whose key and effect a spec taint has is not added (Karmada: already there).
import yaml from 'js-yaml';
import type { Cluster, ClusterStatus, Taint } from '../model/cluster.js';
import { conditionTaints } from '../model/condition-taints.js';
import type { ClusterTaintPolicy, FailoverDecision, MatchCondition, TimedTaint } from '../model/failover.js';
import { formatTime, parseTime } from '../model/rfc3339.js';
import { isMap } from '../model/kube-object.js';
import { emitYaml } from '../format/emit-yaml.js';
import { clusterMatches } from '../select/cluster-matches.js';
import { formatTaint } from '../schedule/find-untolerated-taint.js';
import { failoverDir, type ClusterTaintsInput, type ClusterTaintsOutput } from './failover-input.js';

/** The directory of the bindings branch holding one file of kept taints per cluster. */
export const clusterTaintsDir = `${failoverDir}clusters/`;

/** Returns the path of a cluster's record of kept taints. */
export function clusterTaintsPath(cluster: string): string {
  return `${clusterTaintsDir}${cluster}.yaml`;
}

/** Returns the taints the hub keeps on every registered cluster, the records and one decision per change. */
export function planTaintsOfClusters(input: ClusterTaintsInput): ClusterTaintsOutput {
  const out: ClusterTaintsOutput = { taints: new Map(), files: new Map(), decisions: [] };
  const timeAdded = formatTime(input.now.getTime());
  for (const cluster of input.fleet.clusters) {
    const path = clusterTaintsPath(cluster.name);
    const kept = new KeptTaints(cluster, readRecord(input.recorded.get(path)), timeAdded, out.decisions);
    const status = input.clusterStatus.get(cluster.name);
    taintByCondition(kept, status);
    for (const policy of input.fleet.clusterTaintPolicies ?? []) applyPolicy(kept, policy, status);
    if (kept.taints.length === 0) continue;
    out.taints.set(cluster.name, kept.taints);
    out.files.set(path, emitYaml({ cluster: cluster.name, taints: kept.taints }));
  }
  return out;
}

function taintByCondition(kept: KeptTaints, status: ClusterStatus | undefined): void {
  const change = conditionTaints(status);
  if (change.ready === undefined) return;
  const why = `Ready=${change.ready} (the cluster controller's condition taint)`;
  const reason =
    change.ready === 'True'
      ? 'ClusterReady'
      : `Cluster${change.ready === 'False' ? 'NotReady' : 'Unreachable'}`;
  for (const taint of change.add) kept.add(taint, why, reason);
  for (const taint of change.remove) kept.remove(taint, why, reason);
}

function applyPolicy(kept: KeptTaints, policy: ClusterTaintPolicy, status: ClusterStatus | undefined): void {
  if (policy.targetClusters && !clusterMatches(kept.cluster, policy.targetClusters)) return;
  const conditions = status?.conditions ?? [];
  const label = `ClusterTaintPolicy/${policy.name}`;
  if (conditionsMatch(conditions, policy.addOnConditions)) {
    const why = `${describeConditions(conditions, policy.addOnConditions)} matches addOnConditions of ${label}`;
    for (const taint of policy.taints) kept.add(taint, why, 'AddOnConditions', policy.name);
  }
  if (conditionsMatch(conditions, policy.removeOnConditions)) {
    const why = `${describeConditions(conditions, policy.removeOnConditions)} matches removeOnConditions of ${label}`;
    for (const taint of policy.taints) kept.remove(taint, why, 'RemoveOnConditions', policy.name);
  }
}

type Condition = NonNullable<ClusterStatus['conditions']>[number];

/** Karmada's conditionMatches: a non-empty list whose every entry holds. */
export function conditionsMatch(
  conditions: readonly Condition[],
  matches: readonly MatchCondition[],
): boolean {
  if (matches.length === 0) return false;
  return matches.every((m) => {
    const condition = conditions.find((c) => c.type === m.conditionType);
    if (condition === undefined) return false;
    const listed = m.statusValues.includes(condition.status);
    return m.operator === 'In' ? listed : !listed;
  });
}

// `Ready=False, NetworkAvailable=True`: the statuses the matched conditions have.
function describeConditions(conditions: readonly Condition[], matches: readonly MatchCondition[]): string {
  return matches
    .map((m) => `${m.conditionType}=${conditions.find((c) => c.type === m.conditionType)?.status}`)
    .join(', ');
}

/** One cluster's kept taints, changed by key and effect, with a decision per change. */
class KeptTaints {
  constructor(
    readonly cluster: Cluster,
    readonly taints: TimedTaint[],
    private readonly timeAdded: string,
    private readonly decisions: FailoverDecision[],
  ) {}

  add(taint: Taint, why: string, reason: string, policy?: string): void {
    if (this.cluster.taints.some((t) => sameTaint(t, taint)) || this.taints.some((t) => sameTaint(t, taint)))
      return;
    this.taints.push({ ...taint, timeAdded: this.timeAdded });
    this.decide('TaintAdded', `+${formatTaint(taint)}`, why, reason, policy);
  }

  remove(taint: Taint, why: string, reason: string, policy?: string): void {
    const at = this.taints.findIndex((t) => sameTaint(t, taint));
    if (at < 0) return;
    const [removed] = this.taints.splice(at, 1);
    this.decide('TaintRemoved', `-${formatTaint(removed!)}`, why, reason, policy);
  }

  private decide(
    type: 'TaintAdded' | 'TaintRemoved',
    change: string,
    why: string,
    reason: string,
    policy?: string,
  ): void {
    this.decisions.push({
      type,
      cluster: this.cluster.name,
      reason,
      message: `${this.cluster.name} ${change}: ${why}`,
      ...(policy !== undefined ? { policy } : {}),
    });
  }
}

function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

const EFFECTS: readonly string[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/**
 * Returns the taints a record holds. A record that does not read as one (edited by hand, or
 * broken) holds none: the hub then adds what the conditions and policies ask for again, from now.
 */
export function readRecord(text: string | undefined): TimedTaint[] {
  if (text === undefined) return [];
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch {
    return [];
  }
  if (!isMap(doc) || !Array.isArray(doc['taints'])) return [];
  const taints: TimedTaint[] = [];
  for (const item of doc['taints'] as unknown[]) {
    if (!isMap(item)) continue;
    const { key, value, effect, timeAdded } = item;
    if (typeof key !== 'string' || typeof effect !== 'string' || !EFFECTS.includes(effect)) continue;
    if (typeof timeAdded !== 'string' || parseTime(timeAdded) === undefined) continue;
    if (taints.some((t) => t.key === key && t.effect === effect)) continue;
    taints.push({
      key,
      ...(typeof value === 'string' && value !== '' ? { value } : {}),
      effect: effect as Taint['effect'],
      timeAdded,
    });
  }
  return taints;
}
