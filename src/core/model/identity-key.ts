// Some kinds moved between API groups as Kubernetes matured, and the API server still serves
// them under the old group as well: a Deployment written as extensions/v1beta1 and one written
// as apps/v1 with the same namespace and name are the same stored object, and applying both
// makes them overwrite each other. For these kinds identity takes the group the kind lives in
// now, whatever group a document was written with.
//
// | kind                                 | served under                                         | one object in     |
// |--------------------------------------|------------------------------------------------------|-------------------|
// | Deployment, DaemonSet, ReplicaSet    | extensions/v1beta1, apps/v1beta1 (Deployment), apps/v1beta2, apps/v1 | apps |
// | StatefulSet, ControllerRevision      | apps/v1beta1, apps/v1beta2, apps/v1                  | apps              |
// | Ingress                              | extensions/v1beta1, networking.k8s.io/v1beta1, networking.k8s.io/v1 | networking.k8s.io |
// | NetworkPolicy                        | extensions/v1beta1, networking.k8s.io/v1             | networking.k8s.io |
// | PodSecurityPolicy                    | extensions/v1beta1, policy/v1beta1                   | policy            |
// | Event                                | v1, events.k8s.io/v1beta1, events.k8s.io/v1          | core ('')         |
// Versions within one group (autoscaling/v1 and v2, batch/v1beta1 and v1, ...) share a group
// already. A kind of the same name in any other group (a custom resource) is another object.
import { groupOf, type ObjectRef } from './object-ref.js';

const MOVED: ReadonlyMap<string, { groups: ReadonlySet<string>; group: string }> = new Map(
  (
    [
      ['Deployment', ['extensions', 'apps'], 'apps'],
      ['DaemonSet', ['extensions', 'apps'], 'apps'],
      ['ReplicaSet', ['extensions', 'apps'], 'apps'],
      ['Ingress', ['extensions', 'networking.k8s.io'], 'networking.k8s.io'],
      ['NetworkPolicy', ['extensions', 'networking.k8s.io'], 'networking.k8s.io'],
      ['PodSecurityPolicy', ['extensions', 'policy'], 'policy'],
      ['Event', ['', 'events.k8s.io'], ''],
    ] as const
  ).map(([kind, groups, group]) => [kind, { groups: new Set<string>(groups), group }]),
);

/** Returns the group the API server stores an object of this kind in, given the group it was written with. */
export function storedGroupOf(group: string, kind: string): string {
  const moved = MOVED.get(kind);
  return moved !== undefined && moved.groups.has(group) ? moved.group : group;
}

/** Returns the key two refs share exactly when the API server keeps them as one object. */
export function identityKey(ref: ObjectRef): string {
  return `${storedGroupOf(groupOf(ref.apiVersion), ref.kind)}/${ref.kind}/${ref.namespace}/${ref.name}`;
}
