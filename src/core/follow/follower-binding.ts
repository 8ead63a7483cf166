import type { Binding } from '../model/binding.js';
import { refKey, type ObjectRef } from '../model/object-ref.js';
import { bindingName } from '../format/object-path.js';

/**
 * Returns the binding of an object that no policy places but that follows others (a
 * dependency, an HPA, a Namespace, a quota's ResourceQuota): no replicas, no placement of its own, the given clusters.
 */
export function followerBinding(opts: {
  ref: ObjectRef;
  origin: 'dependency' | 'scaleTarget' | 'namespace' | 'quota';
  clusters: readonly string[];
  requiredBy?: readonly string[];
  overwrite?: boolean;
  preserve?: boolean;
}): Binding {
  return {
    name: bindingName(opts.ref),
    resource: opts.ref,
    key: refKey(opts.ref),
    origin: opts.origin,
    replicas: 0,
    placement: {
      clusterTolerations: [],
      spreadConstraints: [],
      replicaScheduling: { replicaSchedulingType: 'Duplicated' },
    },
    propagateDeps: false,
    conflictResolution: opts.overwrite ? 'Overwrite' : 'Abort',
    preserveResourcesOnDeletion: opts.preserve ?? false,
    schedule: {
      type: 'Scheduled',
      clusters: [...opts.clusters].sort().map((name) => ({ name, replicas: 0 })),
    },
    requiredBy: [...(opts.requiredBy ?? [])].sort(),
    // Karmada's namespace sync controller applies only ClusterOverridePolicies to Namespaces.
    overrides: opts.origin === 'namespace' ? 'clusterOnly' : 'all',
  };
}
