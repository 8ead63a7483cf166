// When a binding is scheduled at all (Karmada's doScheduleBinding, pkg/scheduler/scheduler.go):
// the scheduler does not place a binding again on every event, only for one of these reasons,
// checked in this order; otherwise the binding keeps the clusters it has. That is what keeps a
// cluster that comes back from getting its replicas back: nothing below asks for it.
//
// | trigger             | when                                                                  | Karmada source |
// |---------------------|-----------------------------------------------------------------------|----------------|
// | PlacementChanged    | no placement applied yet, or the placement differs from the one applied (clusterAffinities: only the term in use counts) | placementChanged, pkg/scheduler/helper.go |
// | ReplicasChanged     | Divided, and the previous clusters' replicas do not add up to the template's (a scale, or a cluster evicted) | util.IsBindingReplicasChanged, pkg/util/binding.go |
// | RescheduleTriggered | rescheduleTriggeredAt (a WorkloadRebalancer) after lastScheduledTime: a Fresh schedule | util.RescheduleRequired |
// | Duplicated          | Duplicated, or not a workload (no replicas, no resource requests): always scheduled | doScheduleBinding, ResourceBindingSpec.IsWorkload |
// | ClusterDeregistered | a previous cluster is no longer registered (Karmada: being deleted)   | HasTerminatingTargetClusters |
//
// The applied placement is Karmada's `policy.karmada.io/applied-placement` annotation, kept on
// the binding record: the placement of the last schedule that ended in a result (success, or
// no cluster fits), as canonical JSON. A record without one (written before it was kept, or
// after a failed first schedule) or with one that does not parse asks for a schedule (Karmada
// skips an unparsable one; a record is rewritten by the next schedule, so gitfleet schedules).
//
// lastScheduledTime: Karmada stamps it on every successful schedule; a gitfleet record holds no
// time that changes when nothing else does, so it is set only by a triggered schedule, to the
// trigger's time (one shot: the next render finds them equal). Absent, it means "never
// rescheduled on request", and a trigger then fires (Karmada waits for a first successful
// schedule, which a binding with a previous record has had).
import type { PreviousBinding } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { ClusterAffinityTerm, Placement } from '../model/propagation-policy.js';
import { parseTime } from '../model/rfc3339.js';

export type ScheduleTrigger =
  'PlacementChanged' | 'ReplicasChanged' | 'RescheduleTriggered' | 'Duplicated' | 'ClusterDeregistered';

export interface ScheduleTriggerInput {
  /** The placement the binding is built with now (the policy's, or a Lazy binding's held one). */
  placement: Placement;
  /** appliedPlacementText(placement), when the caller has it already. */
  placementText?: string;
  /** The template's desired replicas. */
  replicas: number;
  /** Karmada's IsWorkload: replicas > 0 or resource requests per replica. */
  isWorkload: boolean;
  previous: PreviousBinding | undefined;
  /** The registered clusters. */
  clusters: readonly Cluster[];
}

/** Returns why the binding must be scheduled, or undefined when it keeps its previous clusters. */
export function scheduleTrigger(input: ScheduleTriggerInput): ScheduleTrigger | undefined {
  const { previous, placement } = input;
  const text = input.placementText ?? appliedPlacementText(placement);
  if (!previous || placementChanged(text, previous.appliedPlacement, previous.affinityName))
    return 'PlacementChanged';
  const divided = placement.replicaScheduling.replicaSchedulingType === 'Divided';
  if (divided && previous.clusters.reduce((sum, c) => sum + c.replicas, 0) !== input.replicas)
    return 'ReplicasChanged';
  if (rescheduleRequired(previous)) return 'RescheduleTriggered';
  if (!input.isWorkload || !divided) return 'Duplicated';
  const registered = new Set(input.clusters.map((c) => c.name));
  if (previous.clusters.some((c) => !registered.has(c.name))) return 'ClusterDeregistered';
  return undefined;
}

/** Karmada's RescheduleRequired, with an absent lastScheduledTime read as "never on request". */
export function rescheduleRequired(
  previous: Pick<PreviousBinding, 'rescheduleTriggeredAt' | 'lastScheduledTime'>,
): boolean {
  const triggered =
    previous.rescheduleTriggeredAt === undefined ? undefined : parseTime(previous.rescheduleTriggeredAt);
  if (triggered === undefined) return false;
  const last = previous.lastScheduledTime === undefined ? undefined : parseTime(previous.lastScheduledTime);
  return last === undefined || triggered > last;
}

/** Returns the canonical JSON of a placement, as the record's applied-placement annotation holds it. */
export function appliedPlacementText(placement: Placement): string {
  return canonicalJson(placement);
}

// Karmada's placementChanged: equal → no; any of the fields but clusterAffinities differs →
// yes; else only the term the scheduler observes counts (none observed, or not found in either → yes).
function placementChanged(
  now: string,
  applied: string | undefined,
  observedTerm: string | undefined,
): boolean {
  if (applied === undefined) return true;
  if (now === applied) return false;
  let before: Placement;
  try {
    before = JSON.parse(applied) as Placement;
  } catch {
    return true;
  }
  const current = JSON.parse(now) as Placement;
  const fields = ['clusterAffinity', 'clusterTolerations', 'spreadConstraints', 'replicaScheduling'] as const;
  if (fields.some((f) => canonicalJson(current[f]) !== canonicalJson(before[f]))) return true;
  if (!observedTerm) return true;
  const termOf = (p: Placement): ClusterAffinityTerm | undefined =>
    (Array.isArray(p.clusterAffinities) ? p.clusterAffinities : []).find(
      (t) => t.affinityName === observedTerm,
    );
  const a = termOf(current);
  const b = termOf(before);
  return a === undefined || b === undefined || canonicalJson(a) !== canonicalJson(b);
}

function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
