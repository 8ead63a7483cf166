import yaml from 'js-yaml';
import type { Binding, PreviousBinding, TargetCluster } from '../model/binding.js';
import { isMap, type KubeObject } from '../model/kube-object.js';
import { refKey, type ObjectRef } from '../model/object-ref.js';
import type { PolicyRef, PropagationPolicyKind } from '../model/propagation-policy.js';
import { emitYaml } from '../render/emit-yaml.js';

// Karmada's claim annotations, kept on the binding record (Git cannot hold them on the template).
const ppNamespace = 'propagationpolicy.karmada.io/namespace';
const ppName = 'propagationpolicy.karmada.io/name';
const cppName = 'clusterpropagationpolicy.karmada.io/name';
const originAnnotation = 'gitfleet.io/origin';

/**
 * Returns the ResourceBinding-shaped record of a binding for the bindings branch: Karmada's
 * `work.karmada.io/v1alpha2` ResourceBinding (ClusterResourceBinding for cluster-scoped
 * templates) with the claim in Karmada's policy annotations, the scheduling result in
 * `spec.clusters`, and a Scheduled condition. It holds nothing that changes when the decision
 * does not (no timestamps, no source commit), so an unchanged render writes nothing.
 */
export function bindingRecord(binding: Binding): string {
  const r = binding.resource;
  const annotations: Record<string, string> = { [originAnnotation]: binding.origin };
  if (binding.policy?.kind === 'PropagationPolicy') {
    annotations[ppNamespace] = binding.policy.namespace;
    annotations[ppName] = binding.policy.name;
  } else if (binding.policy) annotations[cppName] = binding.policy.name;
  const scheduled = binding.schedule.type === 'Scheduled';
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
    },
    status: {
      ...(binding.schedule.type === 'Scheduled' && binding.schedule.affinityName
        ? { schedulerObservingAffinityName: binding.schedule.affinityName }
        : {}),
      conditions: [
        scheduled
          ? {
              type: 'Scheduled',
              status: 'True',
              reason: 'Success',
              message: 'Binding has been scheduled successfully.',
            }
          : {
              type: 'Scheduled',
              status: 'False',
              reason: 'NoClusterFit',
              message: binding.schedule.type === 'NoFit' ? binding.schedule.message : '',
            },
      ],
    },
  };
  return emitYaml(record);
}

/** Returns what a binding record says about the previous render, or undefined for anything else. */
export function parseBindingRecord(text: string): PreviousBinding | undefined {
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
  const policy = claimOf(isMap(doc.metadata.annotations) ? doc.metadata.annotations : {});
  if (!policy) return undefined;
  const status = isMap(doc.status) ? doc.status : {};
  return {
    key: refKey(ref),
    policy,
    clusters: targetClusters(doc.spec.clusters),
    ...(typeof status.schedulerObservingAffinityName === 'string'
      ? { affinityName: status.schedulerObservingAffinityName }
      : {}),
  };
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
