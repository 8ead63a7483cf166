import yaml from 'js-yaml';
import type {
  Binding,
  ClusterDiagnosis,
  HeldSpec,
  PreviousBinding,
  TargetCluster,
} from '../model/binding.js';
import type { Issues } from '../load/field-reader.js';
import { parsePlacement } from '../load/parse-placement.js';
import { isMap, type KubeObject } from '../model/kube-object.js';
import { refKey, type ObjectRef } from '../model/object-ref.js';
import type { PolicyRef, PropagationPolicyKind } from '../model/propagation-policy.js';
import { emitYaml } from '../format/emit-yaml.js';
import { healthStatuses } from '../health/health.js';
import type { AggregatedStatusItem, BindingStatus, FullyAppliedCondition } from './binding-status.js';
import type { GracefulEvictionTask } from '../model/failover.js';
import { evictionTaskField, parseEvictionTasks } from './eviction-task-record.js';
import { parseRefusedClusters, refusedClustersField } from './refused-clusters-record.js';
import { checkOnlyAnnotation, checkOnlyValue } from '../admission/admission-policy.js';
import type { TemplateProvenance } from '../model/source-provenance.js';
import { parseProvenanceField, provenanceField } from './provenance-field.js';

// Karmada's claim annotations, kept on the binding record (Git cannot hold them on the template).
const ppNamespace = 'propagationpolicy.karmada.io/namespace';
const ppName = 'propagationpolicy.karmada.io/name';
const cppName = 'clusterpropagationpolicy.karmada.io/name';
const originAnnotation = 'gitfleet.io/origin';
// The hash of the template a Lazy policy's binding was built from (see lazy-activation.ts).
const templateHashAnnotation = 'gitfleet.io/template-hash';
// The placement the clusters were scheduled with (Karmada's annotation, schedule-trigger.ts).
const appliedPlacementAnnotation = 'policy.karmada.io/applied-placement';

/**
 * Returns the ResourceBinding-shaped record of a binding for the bindings branch: Karmada's
 * `work.karmada.io/v1alpha2` ResourceBinding (ClusterResourceBinding for cluster-scoped
 * templates) with the claim in Karmada's policy annotations, the scheduling result in
 * `spec.clusters`, a Scheduled condition and, when the agents' status is given
 * (aggregateBindingStatus), `status.aggregatedStatus` and a FullyApplied condition. It holds
 * nothing that changes when the decision and the status do not (no source commit; the only
 * times are those of failover decisions: an eviction task's creationTimestamp, a fresh
 * schedule's rescheduleTriggeredAt and lastScheduledTime), so an unchanged render writes nothing.
 * A template a source rendered names its provenance in `spec.templateSource` (docs/sources.md#provenance).
 */
export function bindingRecord(
  binding: Binding,
  status?: BindingStatus,
  provenance?: TemplateProvenance,
): string {
  const r = binding.resource;
  const annotations: Record<string, string> = { [originAnnotation]: binding.origin };
  if (binding.policy?.kind === 'PropagationPolicy') {
    annotations[ppNamespace] = binding.policy.namespace;
    annotations[ppName] = binding.policy.name;
  } else if (binding.policy) annotations[cppName] = binding.policy.name;
  if (binding.templateHash !== undefined) annotations[templateHashAnnotation] = binding.templateHash;
  if (binding.appliedPlacement !== undefined)
    annotations[appliedPlacementAnnotation] = binding.appliedPlacement;
  if (binding.checkOnly) annotations[checkOnlyAnnotation] = checkOnlyValue;
  const record: KubeObject = {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: r.namespace ? 'ResourceBinding' : 'ClusterResourceBinding',
    metadata: { name: binding.name, ...(r.namespace ? { namespace: r.namespace } : {}), annotations },
    spec: {
      resource: {
        apiVersion: r.apiVersion,
        kind: r.kind,
        ...(r.namespace ? { namespace: r.namespace } : {}),
        name: r.name,
      },
      replicas: binding.replicas,
      clusters: binding.schedule.type === 'Scheduled' ? binding.schedule.clusters : [],
      placement: binding.placement,
      propagateDeps: binding.propagateDeps,
      conflictResolution: binding.conflictResolution,
      preserveResourcesOnDeletion: binding.preserveResourcesOnDeletion,
      ...(binding.requiredBy.length > 0 ? { requiredBy: binding.requiredBy } : {}),
      ...(binding.evictionTasks && binding.evictionTasks.length > 0
        ? { gracefulEvictionTasks: binding.evictionTasks.map(evictionTaskField) }
        : {}),
      ...(binding.rescheduleTriggeredAt !== undefined
        ? { rescheduleTriggeredAt: binding.rescheduleTriggeredAt }
        : {}),
      ...(provenance ? { templateSource: provenanceField(provenance) } : {}),
    },
    status: {
      ...(binding.schedule.type === 'Scheduled' && binding.schedule.affinityName
        ? { schedulerObservingAffinityName: binding.schedule.affinityName }
        : {}),
      conditions: [
        scheduledCondition(binding),
        ...(status ? [{ type: 'FullyApplied', ...status.fullyApplied }] : []),
      ],
      ...(status ? { aggregatedStatus: status.aggregatedStatus } : {}),
      ...(status?.templateStatus ? { templateStatus: status.templateStatus } : {}),
      ...(status?.templateStatusError ? { templateStatusError: status.templateStatusError } : {}),
      ...(binding.lastScheduledTime !== undefined ? { lastScheduledTime: binding.lastScheduledTime } : {}),
      ...refusedClustersField(binding.schedule),
    },
  };
  return emitYaml(record);
}

// Karmada's Scheduled condition as its getConditionByError writes it (pkg/scheduler/helper.go):
// True/Success after a schedule, False with the failure's reason after a failed one, also when
// the previous clusters were kept. Followers are not scheduled: they say True/Success.
function scheduledCondition(binding: Binding): Record<string, string> {
  const schedule = binding.schedule;
  const failure =
    schedule.type === 'NoFit'
      ? { reason: schedule.reason ?? 'NoClusterFit', message: schedule.message }
      : schedule.failed;
  return failure
    ? { type: 'Scheduled', status: 'False', reason: failure.reason, message: failure.message }
    : {
        type: 'Scheduled',
        status: 'True',
        reason: 'Success',
        message: 'Binding has been scheduled successfully.',
      };
}

/** A binding record as read back from the bindings branch: for `gitfleet status` and the hub. */
export interface BindingView {
  /** Karmada's binding name. */
  name: string;
  resource: ObjectRef;
  /** `refKey(resource)`. */
  key: string;
  origin: Binding['origin'];
  /** The claiming policy; absent for followers. */
  policy?: PolicyRef;
  /** The template's desired replicas (0 for objects without replicas). */
  replicas: number;
  /** The scheduled clusters and their replicas (none when scheduling failed). */
  clusters: TargetCluster[];
  affinityName?: string;
  /** The status the hub aggregated when it wrote the record (empty when it had none). */
  aggregatedStatus: AggregatedStatusItem[];
  fullyApplied?: FullyAppliedCondition;
  /** For a Lazy policy's binding: what it was built with (see HeldSpec). */
  held?: HeldSpec;
  /** Its graceful eviction tasks (spec.gracefulEvictionTasks): clusters it is being evicted from. */
  evictionTasks?: GracefulEvictionTask[];
  /** spec.rescheduleTriggeredAt: when a fresh schedule was asked for. */
  rescheduleTriggeredAt?: string;
  /** status.lastScheduledTime: when the fresh schedule asked for was made. */
  lastScheduledTime?: string;
  /** The placement the clusters were scheduled with (Binding.appliedPlacement). */
  appliedPlacement?: string;
  /** The Scheduled condition when it is False (a failed schedule): Karmada's reason and the message. */
  scheduleFailed?: { reason: string; message: string };
  /** Why the last schedule left clusters out (status.refusedClusters); absent when it says nothing. */
  refused?: ClusterDiagnosis[];
  /**
   * Kept for the check only (Binding.checkOnly): the record's `gitfleet.io/admission: check-only`
   * annotation; records written before it was recorded read as applied templates.
   */
  checkOnly?: true;
  /** Where a template a source rendered came from (spec.templateSource); absent for a committed one. */
  templateSource?: TemplateProvenance;
}

const origins: readonly Binding['origin'][] = ['policy', 'dependency', 'scaleTarget', 'namespace'];

/** Returns what a binding record says about the previous render, or undefined for anything else. */
export function parseBindingRecord(text: string): PreviousBinding | undefined {
  const view = parseBindingView(text);
  if (!view?.policy) return undefined;
  return {
    key: view.key,
    policy: view.policy,
    clusters: view.clusters,
    ...(view.affinityName !== undefined ? { affinityName: view.affinityName } : {}),
    ...(view.held ? { held: view.held } : {}),
    ...(view.evictionTasks ? { evictionTasks: view.evictionTasks } : {}),
    ...(view.rescheduleTriggeredAt !== undefined
      ? { rescheduleTriggeredAt: view.rescheduleTriggeredAt }
      : {}),
    ...(view.lastScheduledTime !== undefined ? { lastScheduledTime: view.lastScheduledTime } : {}),
    ...(view.appliedPlacement !== undefined ? { appliedPlacement: view.appliedPlacement } : {}),
    ...(view.refused && view.clusters.length > 0 ? { refused: view.refused } : {}),
  };
}

// A Lazy policy's binding: its template hash and the spec it was built with, when the record
// holds them readably (records written before Lazy was honoured have no hash: nothing is held).
function heldSpecOf(
  annotations: Record<string, unknown>,
  spec: Record<string, unknown>,
): HeldSpec | undefined {
  const templateHash = annotations[templateHashAnnotation];
  if (typeof templateHash !== 'string') return undefined;
  const issues: Issues = [];
  const placement = parsePlacement(spec.placement, 'spec.placement', issues);
  const conflictResolution = spec.conflictResolution === 'Overwrite' ? 'Overwrite' : 'Abort';
  if (issues.length > 0) return undefined;
  return {
    templateHash,
    placement,
    propagateDeps: spec.propagateDeps === true,
    conflictResolution,
    preserveResourcesOnDeletion: spec.preserveResourcesOnDeletion === true,
  };
}

/** Returns everything a binding record holds, followers included, or undefined when it is not one. */
export function parseBindingView(text: string): BindingView | undefined {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
  if (!isMap(doc) || !isMap(doc.metadata) || !isMap(doc.spec) || !isMap(doc.spec.resource)) return undefined;
  const resource = doc.spec.resource;
  const ref: ObjectRef = {
    apiVersion: String(resource.apiVersion ?? ''),
    kind: String(resource.kind ?? ''),
    namespace: typeof resource.namespace === 'string' ? resource.namespace : '',
    name: String(resource.name ?? ''),
  };
  const annotations = isMap(doc.metadata.annotations) ? doc.metadata.annotations : {};
  const policy = claimOf(annotations);
  const origin =
    origins.find((o) => o === annotations[originAnnotation]) ?? (policy ? 'policy' : 'dependency');
  const status = isMap(doc.status) ? doc.status : {};
  const fullyApplied = fullyAppliedOf(status.conditions);
  const held = heldSpecOf(annotations, doc.spec);
  const evictionTasks = parseEvictionTasks(doc.spec.gracefulEvictionTasks);
  const scheduleFailed = scheduleFailedOf(status.conditions);
  const refused = parseRefusedClusters(status.refusedClusters);
  const templateSource = parseProvenanceField(doc.spec.templateSource);
  return {
    name: typeof doc.metadata.name === 'string' ? doc.metadata.name : '',
    resource: ref,
    key: refKey(ref),
    origin,
    ...(policy ? { policy } : {}),
    replicas: typeof doc.spec.replicas === 'number' ? doc.spec.replicas : 0,
    clusters: targetClusters(doc.spec.clusters),
    ...(typeof status.schedulerObservingAffinityName === 'string'
      ? { affinityName: status.schedulerObservingAffinityName }
      : {}),
    aggregatedStatus: aggregatedStatusOf(status.aggregatedStatus),
    ...(fullyApplied ? { fullyApplied } : {}),
    ...(held ? { held } : {}),
    ...(evictionTasks.length > 0 ? { evictionTasks } : {}),
    ...(typeof doc.spec.rescheduleTriggeredAt === 'string'
      ? { rescheduleTriggeredAt: doc.spec.rescheduleTriggeredAt }
      : {}),
    ...(typeof status.lastScheduledTime === 'string' ? { lastScheduledTime: status.lastScheduledTime } : {}),
    ...(typeof annotations[appliedPlacementAnnotation] === 'string'
      ? { appliedPlacement: annotations[appliedPlacementAnnotation] }
      : {}),
    ...(scheduleFailed ? { scheduleFailed } : {}),
    ...(refused.length > 0 ? { refused } : {}),
    ...(annotations[checkOnlyAnnotation] === checkOnlyValue ? { checkOnly: true as const } : {}),
    ...(templateSource ? { templateSource } : {}),
  };
}

function scheduleFailedOf(conditions: unknown): BindingView['scheduleFailed'] {
  if (!Array.isArray(conditions)) return undefined;
  const c = conditions.filter(isMap).find((x) => x.type === 'Scheduled');
  if (!c || c.status !== 'False') return undefined;
  return {
    reason: typeof c.reason === 'string' ? c.reason : '',
    message: typeof c.message === 'string' ? c.message : '',
  };
}

function fullyAppliedOf(conditions: unknown): FullyAppliedCondition | undefined {
  if (!Array.isArray(conditions)) return undefined;
  const c = conditions.filter(isMap).find((x) => x.type === 'FullyApplied');
  if (!c || (c.status !== 'True' && c.status !== 'False')) return undefined;
  return {
    status: c.status,
    reason: c.status === 'True' ? 'FullyAppliedSuccess' : 'FullyAppliedFailed',
    message: typeof c.message === 'string' ? c.message : '',
  };
}

function aggregatedStatusOf(value: unknown): AggregatedStatusItem[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isMap).flatMap((item): AggregatedStatusItem[] => {
    if (typeof item.clusterName !== 'string' || typeof item.applied !== 'boolean') return [];
    return [
      {
        clusterName: item.clusterName,
        applied: item.applied,
        ...(typeof item.appliedMessage === 'string' ? { appliedMessage: item.appliedMessage } : {}),
        health: healthStatuses.find((h) => h === item.health) ?? 'Unknown',
        ...(typeof item.healthMessage === 'string' ? { healthMessage: item.healthMessage } : {}),
        ...(isMap(item.status) ? { status: item.status } : {}),
        ...(item.checkedAtRender === true ? { checkedAtRender: true as const } : {}),
      },
    ];
  });
}

function claimOf(annotations: Record<string, unknown>): PolicyRef | undefined {
  const name = annotations[ppName];
  if (typeof name === 'string') {
    const namespace = annotations[ppNamespace];
    return {
      kind: 'PropagationPolicy' as PropagationPolicyKind,
      namespace: typeof namespace === 'string' ? namespace : '',
      name,
    };
  }
  const cluster = annotations[cppName];
  return typeof cluster === 'string'
    ? { kind: 'ClusterPropagationPolicy', namespace: '', name: cluster }
    : undefined;
}

function targetClusters(value: unknown): TargetCluster[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(isMap)
    .filter((c) => typeof c.name === 'string')
    .map((c) => ({ name: c.name as string, replicas: typeof c.replicas === 'number' ? c.replicas : 0 }));
}
