// Builders for core table tests: small, valid objects with the fields a test cares about.
import type { Cluster, Taint } from '../../src/core/model/cluster.js';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import type { OverridePolicy, OverrideRule } from '../../src/core/model/override-policy.js';
import type { Placement, PropagationPolicy } from '../../src/core/model/propagation-policy.js';
import type { ResourceSelector } from '../../src/core/model/selectors.js';

/** Returns a cluster named `name` with the given overrides. */
export function aCluster(name: string, extra: Partial<Omit<Cluster, 'name'>> = {}): Cluster {
  return {
    name,
    labels: {},
    zones: [],
    taints: [] as Taint[],
    syncMode: 'Pull',
    source: { file: `clusters/${name}.yaml`, index: 0 },
    ...extra,
  };
}

/** Returns a Deployment `namespace/name` with one container per image. */
export function aDeployment(
  name: string,
  opts: { namespace?: string; replicas?: number; labels?: Record<string, string>; images?: string[] } = {},
): KubeObject {
  const images = opts.images ?? ['nginx:1.27'];
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: opts.namespace ?? 'default',
      ...(opts.labels ? { labels: opts.labels } : {}),
    },
    spec: {
      replicas: opts.replicas ?? 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: images.map((image, i) => ({ name: i === 0 ? name : `${name}-${i}`, image })) },
      },
    },
  };
}

/** Returns a ConfigMap `namespace/name` with the given data. */
export function aConfigMap(
  name: string,
  data: Record<string, string> = {},
  namespace = 'default',
): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

/** Returns a placement with Karmada's defaults and the given overrides. */
export function aPlacement(extra: Partial<Placement> = {}): Placement {
  return {
    clusterTolerations: [],
    spreadConstraints: [],
    replicaScheduling: { replicaSchedulingType: 'Duplicated' },
    ...extra,
  };
}

/** Returns a PropagationPolicy (or, with namespace '', a ClusterPropagationPolicy). */
export function aPropagationPolicy(
  name: string,
  selectors: ResourceSelector[],
  extra: Partial<PropagationPolicy> = {},
): PropagationPolicy {
  const namespace = extra.namespace ?? 'default';
  return {
    kind: namespace ? 'PropagationPolicy' : 'ClusterPropagationPolicy',
    name,
    namespace,
    resourceSelectors: selectors,
    placement: aPlacement(),
    priority: 0,
    preemption: 'Never',
    propagateDeps: false,
    conflictResolution: 'Abort',
    preserveResourcesOnDeletion: false,
    dependentOverrides: [],
    schedulerName: 'default-scheduler',
    source: { file: `policies/${name}.yaml`, index: 0 },
    ...extra,
  };
}

/** Returns an OverridePolicy (or, with namespace '', a ClusterOverridePolicy). */
export function anOverridePolicy(
  name: string,
  rules: OverrideRule[],
  extra: Partial<OverridePolicy> = {},
): OverridePolicy {
  const namespace = extra.namespace ?? 'default';
  return {
    kind: namespace ? 'OverridePolicy' : 'ClusterOverridePolicy',
    name,
    namespace,
    overrideRules: rules,
    source: { file: `overrides/${name}.yaml`, index: 0 },
    ...extra,
  };
}
