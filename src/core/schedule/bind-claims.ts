import type { Binding, PreviousBinding, ScheduleResult } from '../model/binding.js';
import type { Cluster, ClusterStatus } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { refLabel } from '../model/object-ref.js';
import type { Claim } from '../detect/detect-claims.js';
import { replicaKindOf, templateReplicas } from '../override/template-replicas.js';
import { replicaRequestOf } from './replica-request-of.js';
import { scheduleBinding } from './schedule-binding.js';
import { bindingName } from '../format/object-path.js';

export interface BindInput {
  claims: readonly Claim[];
  clusters: readonly Cluster[];
  clusterStatus: ReadonlyMap<string, ClusterStatus>;
  previous: ReadonlyMap<string, PreviousBinding>;
}

/**
 * Returns one scheduled binding per claim. When nothing fits, the binding keeps its previous
 * clusters, as Karmada's scheduler leaves `spec.clusters` untouched on failure: a failed
 * schedule never withdraws a running workload.
 */
export function bindClaims(input: BindInput): { bindings: Binding[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const bindings = input.claims.map((claim) => {
    const bound = bindClaim(claim, input, input.previous.get(claim.template.key));
    if (bound.diagnostic) diagnostics.push(bound.diagnostic);
    return bound.binding;
  });
  return { bindings, diagnostics };
}

/** Returns the scheduled binding of one claim, and the diagnostic of a failed schedule. */
export function bindClaim(
  claim: Claim,
  input: Pick<BindInput, 'clusters' | 'clusterStatus'>,
  previous: PreviousBinding | undefined,
): { binding: Binding; diagnostic?: Diagnostic } {
  const { template, policy } = claim;
  // A GetReplicas script replaces the built-in replica interpreter (core/interpret).
  const custom = template.interpreted?.replicas;
  const replicas = custom ? custom.replicas : templateReplicas(template.object);
  // Only kinds Karmada interprets replicas for carry replica requirements; a DaemonSet's
  // resource requests must not turn it into a workload that a 0-replica rule drops.
  const request = custom
    ? custom.request
    : replicaKindOf(template.object)
      ? replicaRequestOf(template.object)
      : undefined;
  let schedule: ScheduleResult = scheduleBinding({
    resource: template.ref,
    key: template.key,
    replicas,
    ...(request ? { replicaRequest: request } : {}),
    placement: policy.placement,
    clusters: input.clusters,
    clusterStatus: input.clusterStatus,
    ...(previous ? { previous } : {}),
  });
  let diagnostic: Diagnostic | undefined;
  if (schedule.type === 'NoFit') {
    diagnostic = noFitDiagnostic(refLabel(template.ref), schedule, previous);
    if (previous && previous.clusters.length > 0)
      schedule = { type: 'Scheduled', clusters: previous.clusters };
  }
  const binding: Binding = {
    name: bindingName(template.ref),
    resource: template.ref,
    key: template.key,
    policy: { kind: policy.kind, namespace: policy.namespace, name: policy.name },
    origin: 'policy',
    replicas,
    placement: policy.placement,
    propagateDeps: policy.propagateDeps,
    conflictResolution: policy.conflictResolution,
    preserveResourcesOnDeletion: policy.preserveResourcesOnDeletion,
    schedule,
    requiredBy: [],
    overrides: 'all',
    ...(policy.suspension ? { suspension: policy.suspension } : {}),
  };
  return diagnostic ? { binding, diagnostic } : { binding };
}

function noFitDiagnostic(
  subject: string,
  result: Extract<ScheduleResult, { type: 'NoFit' }>,
  previous: PreviousBinding | undefined,
): Diagnostic {
  const reasons = result.diagnosis.map((d) => `${d.cluster}: ${d.reason}`).join('; ');
  const kept = previous && previous.clusters.length > 0 ? ' (kept on its previous clusters)' : '';
  return {
    severity: 'error',
    code: 'NoClusterFit',
    subject,
    message: `${result.message}${kept}${reasons ? `: ${reasons}` : ''}`,
  };
}
