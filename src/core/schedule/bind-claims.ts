import type { Binding, PreviousBinding, ScheduleResult } from '../model/binding.js';
import type { Cluster, ClusterStatus } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { TimedTaint } from '../model/failover.js';
import { refLabel } from '../model/object-ref.js';
import { policyLabel } from '../model/propagation-policy.js';
import type { Claim } from '../detect/detect-claims.js';
import { isCheckOnlyTemplate } from '../admission/admission-policy.js';
import { replicaKindOf, templateReplicas } from '../override/template-replicas.js';
import { replicaRequestOf, type ReplicaRequest } from './replica-request-of.js';
import type { FleetApis } from './fleet-apis.js';
import { scheduleBinding } from './schedule-binding.js';
import { bindingName } from '../format/object-path.js';
import { bindingSpecOf, type BindingSpec } from './lazy-activation.js';
import { appliedPlacementText, rescheduleRequired, scheduleTrigger } from './schedule-trigger.js';

export interface BindInput {
  clusters: readonly Cluster[];
  clusterStatus: ReadonlyMap<string, ClusterStatus>;
  /** The taints the hub keeps per cluster (Snapshot.clusterTaints); absent: derived from status. */
  clusterTaints?: ReadonlyMap<string, readonly TimedTaint[]>;
  /** The APIs the fleet's own CRDs serve on each cluster (fleet-apis.ts); absent: none. */
  fleetApis?: FleetApis;
}

/**
 * Returns the scheduled binding of one claim, and the diagnostic of a failed schedule. A failed
 * schedule does what Karmada's scheduler does to `spec.clusters` (pkg/scheduler/scheduler.go):
 *
 * | failure                                             | clusters     | Scheduled condition    |
 * |-----------------------------------------------------|--------------|------------------------|
 * | no cluster passes the filters (FitError)            | cleared      | False, NoClusterFit    |
 * | the clusters cannot take the replicas               | the previous | False, Unschedulable   |
 * | spread constraints, no candidates, other errors     | the previous | False, SchedulerError  |
 *
 * With clusterAffinities, the first term tried decides. A cleared binding withdraws its
 * template, subject to the mass-deletion guard downstream.
 */
export function bindClaim(
  claim: Claim,
  input: BindInput,
  previous: PreviousBinding | undefined,
): { binding: Binding; diagnostic?: Diagnostic } {
  const { template, policy } = claim;
  const { replicas, request } = replicaNeedsOf(template);
  const spec = bindingSpecOf(template, policy, previous);
  if (policy.missingOverrides) {
    return {
      binding: bindingOf(claim, replicas, waitingSchedule(previous), spec, previous),
      diagnostic: waitingDiagnostic(claim),
    };
  }
  // Karmada's doScheduleBinding: a binding is scheduled again only for a reason (schedule-trigger.ts).
  const placementText = appliedPlacementText(spec.placement);
  const isWorkload =
    replicas > 0 || (request !== undefined && (request.cpuMilli > 0 || request.memoryBytes > 0));
  const trigger = scheduleTrigger({
    placement: spec.placement,
    placementText,
    replicas,
    isWorkload,
    previous,
    clusters: input.clusters,
  });
  if (trigger === undefined && previous) {
    const binding = bindingOf(claim, replicas, unchangedSchedule(previous), spec, previous);
    return { binding: withScheduleRecord(binding, previous, previous.appliedPlacement, false) };
  }
  return scheduleAgain({ claim, input, previous, spec, replicas, request, placementText });
}

/** The replicas a template asks for and what each needs, from its GetReplicas script or the built-in interpreter. */
function replicaNeedsOf(template: Claim['template']): {
  replicas: number;
  request: ReplicaRequest | undefined;
} {
  const custom = template.interpreted?.replicas;
  if (custom) return { replicas: custom.replicas, request: custom.request };
  // Only kinds Karmada interprets replicas for carry replica requirements; a DaemonSet's
  // resource requests must not turn it into a workload that a 0-replica rule drops.
  const request = replicaKindOf(template.object) ? replicaRequestOf(template.object) : undefined;
  return { replicas: templateReplicas(template.object), request };
}

/** Schedules the binding afresh and records the result as Karmada does. */
function scheduleAgain(args: {
  claim: Claim;
  input: BindInput;
  previous: PreviousBinding | undefined;
  spec: BindingSpec;
  replicas: number;
  request: ReplicaRequest | undefined;
  placementText: string;
}): { binding: Binding; diagnostic?: Diagnostic } {
  const { claim, input, previous, spec, replicas, request, placementText } = args;
  const template = claim.template;
  const fresh = previous !== undefined && rescheduleRequired(previous);
  let schedule: ScheduleResult = scheduleBinding({
    resource: template.ref,
    key: template.key,
    replicas,
    ...(request ? { replicaRequest: request } : {}),
    placement: spec.placement,
    clusters: input.clusters,
    clusterStatus: input.clusterStatus,
    ...(input.clusterTaints ? { clusterTaints: input.clusterTaints } : {}),
    ...(input.fleetApis ? { fleetApis: input.fleetApis } : {}),
    ...(previous ? { previous } : {}),
    ...(fresh ? { fresh } : {}),
  });
  let diagnostic: Diagnostic | undefined;
  if (schedule.type === 'NoFit') {
    const keep = schedule.keepPrevious === true && previous !== undefined && previous.clusters.length > 0;
    diagnostic = noFitDiagnostic(refLabel(template.ref), schedule, keep);
    if (keep) schedule = keptPrevious(schedule, previous);
  }
  const binding = bindingOf(claim, replicas, schedule, spec, previous);
  // Karmada updates the applied placement after a schedule that ended in a result (success, or
  // no cluster fits: cleared) and stamps lastScheduledTime only on success.
  const resulted = schedule.type === 'Scheduled' ? !schedule.failed : schedule.keepPrevious !== true;
  const applied = resulted ? placementText : previous?.appliedPlacement;
  const stamped = fresh && schedule.type === 'Scheduled' && !schedule.failed;
  const recorded = withScheduleRecord(binding, previous, applied, stamped);
  return diagnostic ? { binding: recorded, diagnostic } : { binding: recorded };
}

// The clusters a binding keeps when nothing asks for a schedule: the previous ones, as they are.
function unchangedSchedule(previous: PreviousBinding): ScheduleResult {
  return {
    type: 'Scheduled',
    clusters: previous.clusters,
    ...(previous.affinityName !== undefined ? { affinityName: previous.affinityName } : {}),
    ...(previous.refused ? { refused: previous.refused } : {}),
  };
}

// The schedule's own record on the binding: the applied placement, and the reschedule times
// (a triggered schedule that succeeded consumes its trigger: lastScheduledTime = its time).
function withScheduleRecord(
  binding: Binding,
  previous: PreviousBinding | undefined,
  appliedPlacement: string | undefined,
  consumed: boolean,
): Binding {
  const triggered = previous?.rescheduleTriggeredAt;
  const last = consumed ? triggered : previous?.lastScheduledTime;
  return {
    ...binding,
    ...(appliedPlacement !== undefined ? { appliedPlacement } : {}),
    ...(triggered !== undefined ? { rescheduleTriggeredAt: triggered } : {}),
    ...(last !== undefined ? { lastScheduledTime: last } : {}),
  };
}

function bindingOf(
  claim: Claim,
  replicas: number,
  schedule: ScheduleResult,
  spec: BindingSpec,
  previous: PreviousBinding | undefined,
): Binding {
  const { template, policy } = claim;
  return {
    name: bindingName(template.ref),
    resource: template.ref,
    key: template.key,
    policy: { kind: policy.kind, namespace: policy.namespace, name: policy.name },
    origin: 'policy',
    replicas,
    placement: spec.placement,
    propagateDeps: spec.propagateDeps,
    conflictResolution: spec.conflictResolution,
    preserveResourcesOnDeletion: spec.preserveResourcesOnDeletion,
    ...(policy.failover ? { failover: policy.failover } : {}),
    schedule,
    requiredBy: [],
    overrides: 'all',
    ...(policy.suspension ? { suspension: policy.suspension } : {}),
    ...(spec.templateHash !== undefined ? { templateHash: spec.templateHash } : {}),
    ...(isCheckOnlyTemplate(template.object) ? { checkOnly: true as const } : {}),
    ...carriedFailoverState(previous),
  };
}

// What a binding's record carries from pass to pass until a failover decision changes it: its
// graceful eviction tasks (until assessed done, apply-evictions.ts) and the times of an asked-for
// fresh schedule (Karmada keeps all three in the binding object; here the record is the object).
function carriedFailoverState(
  previous: PreviousBinding | undefined,
): Pick<Binding, 'evictionTasks' | 'rescheduleTriggeredAt' | 'lastScheduledTime'> {
  if (!previous) return {};
  return {
    ...(previous.evictionTasks && previous.evictionTasks.length > 0
      ? { evictionTasks: previous.evictionTasks }
      : {}),
    ...(previous.rescheduleTriggeredAt !== undefined
      ? { rescheduleTriggeredAt: previous.rescheduleTriggeredAt }
      : {}),
    ...(previous.lastScheduledTime !== undefined ? { lastScheduledTime: previous.lastScheduledTime } : {}),
  };
}

// Karmada's detector leaves the binding as it was while a dependent override is missing
// (pkg/detector/policy.go): the previous clusters stay; without a previous binding, nothing.
function waitingSchedule(previous: PreviousBinding | undefined): ScheduleResult {
  if (previous && previous.clusters.length > 0) return unchangedSchedule(previous);
  return {
    type: 'NoFit',
    reason: 'SchedulerError',
    diagnosis: [],
    message: 'waiting for dependent overrides',
  };
}

function waitingDiagnostic(claim: Claim): Diagnostic {
  const missing = claim.policy.missingOverrides ?? [];
  return {
    severity: 'warning',
    code: 'WaitingForOverrides',
    subject: refLabel(claim.template.ref),
    message: `${policyLabel(claim.policy)} waits for its dependentOverrides: ${missing.join(', ')} not in the fleet (${claim.policy.source.file}); the template keeps its previous placement, if any, until they are`,
  };
}

// The previous clusters and observed term stay; the failure is recorded with them.
function keptPrevious(
  failed: Extract<ScheduleResult, { type: 'NoFit' }>,
  previous: PreviousBinding,
): ScheduleResult {
  return {
    type: 'Scheduled',
    clusters: previous.clusters,
    ...(previous.affinityName !== undefined ? { affinityName: previous.affinityName } : {}),
    failed: { reason: failed.reason ?? 'SchedulerError', message: failed.message },
    ...(failed.diagnosis.length > 0 ? { refused: failed.diagnosis } : {}),
  };
}

function noFitDiagnostic(
  subject: string,
  result: Extract<ScheduleResult, { type: 'NoFit' }>,
  keep: boolean,
): Diagnostic {
  const reasons = result.diagnosis.map((d) => `${d.cluster}: ${d.reason}`).join('; ');
  const kept = keep ? ' (kept on its previous clusters)' : '';
  return {
    severity: 'error',
    code: 'NoClusterFit',
    subject,
    message: `${result.message}${kept}${reasons ? `: ${reasons}` : ''}`,
  };
}
