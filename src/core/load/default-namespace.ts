import { groupOf } from '../model/object-ref.js';

// Built-in namespaced kinds, by `group/Kind`. A template of one of these without
// metadata.namespace lives in `default`, where `kubectl apply` would create it; without this,
// such a template would never match a PropagationPolicy (whose selectors default to the
// policy's namespace) and would not clash with the same object written with `namespace: default`.
// Custom resources are left as written: their scope is known only to their CRD.
const namespacedKinds = new Set([
  '/ConfigMap',
  '/Secret',
  '/Service',
  '/ServiceAccount',
  '/Pod',
  '/PodTemplate',
  '/Endpoints',
  '/PersistentVolumeClaim',
  '/ReplicationController',
  '/LimitRange',
  '/ResourceQuota',
  '/Event',
  'apps/Deployment',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'apps/ReplicaSet',
  'apps/ControllerRevision',
  'batch/Job',
  'batch/CronJob',
  'autoscaling/HorizontalPodAutoscaler',
  'networking.k8s.io/Ingress',
  'networking.k8s.io/NetworkPolicy',
  'discovery.k8s.io/EndpointSlice',
  'policy/PodDisruptionBudget',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/RoleBinding',
  'coordination.k8s.io/Lease',
  'events.k8s.io/Event',
  'storage.k8s.io/CSIStorageCapacity',
  'multicluster.x-k8s.io/ServiceExport',
  'multicluster.x-k8s.io/ServiceImport',
]);

/** Returns the namespace a template lives in: as written, or `default` for a built-in namespaced kind without one. */
export function effectiveNamespace(apiVersion: string, kind: string, written: string): string {
  if (written) return written;
  return namespacedKinds.has(`${groupOf(apiVersion)}/${kind}`) ? 'default' : '';
}
