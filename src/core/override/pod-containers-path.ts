/**
 * Where the containers are, for the kinds whose images, commands and args Karmada overrides
 * without a predicate (pkg/util/overridemanager/imageoverride.go, commandargsoverride.go). Karmada
 * matches the kind only, whatever the apiVersion. Init containers are never touched.
 *
 * | kind                                               | containers at                   |
 * |----------------------------------------------------|---------------------------------|
 * | Pod                                                | spec.containers                 |
 * | ReplicaSet, Deployment, DaemonSet, StatefulSet, Job | spec.template.spec.containers   |
 * | anything else                                      | (not overridden)                |
 */
const POD_TEMPLATE_KINDS: ReadonlySet<string> = new Set([
  'ReplicaSet',
  'Deployment',
  'DaemonSet',
  'StatefulSet',
  'Job',
]);

/** Returns the path of the containers list for a kind, or undefined when Karmada does not override it. */
export function podContainersPath(kind: string): readonly string[] | undefined {
  if (kind === 'Pod') return ['spec', 'containers'];
  if (POD_TEMPLATE_KINDS.has(kind)) return ['spec', 'template', 'spec', 'containers'];
  return undefined;
}
