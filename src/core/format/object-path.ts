import { groupOf, type ObjectRef } from '../model/object-ref.js';

/**
 * Returns the file of an object in a cluster branch (docs/architecture.md#cluster-branches):
 * `<namespace>/<Kind>[.<group>]/<name>.yaml`, or `_cluster/...` for cluster-scoped objects.
 */
export function objectPath(ref: ObjectRef): string {
  const group = groupOf(ref.apiVersion);
  const kindDir = group ? `${ref.kind}.${group}` : ref.kind;
  return `${ref.namespace || '_cluster'}/${kindDir}/${ref.name}.yaml`;
}

/** Returns the binding name Karmada gives a template: lower(name-kind), ':' replaced by '.'. */
export function bindingName(ref: ObjectRef): string {
  return `${ref.name}-${ref.kind}`.replace(/:/g, '.').toLowerCase();
}
