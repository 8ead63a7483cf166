import type { FleetConfig } from '../model/fleet-config.js';
import type { Template } from '../model/fleet.js';
import { groupOf } from '../model/object-ref.js';

/** Karmada's claimed-by label: a template carrying it is never propagated by a policy. */
export const claimedByLabel = 'resourcetemplate.karmada.io/claimed-by';

// Karmada's default skipped APIs (pkg/util/apigroup.go) plus gitfleet's own group.
const skippedGroups = new Set([
  'cluster.karmada.io',
  'policy.karmada.io',
  'work.karmada.io',
  'config.karmada.io',
  'networking.karmada.io',
  'autoscaling.karmada.io',
  'remedy.karmada.io',
  'apps.karmada.io',
  'events.k8s.io',
  'gitfleet.io',
]);

/** Returns whether a namespace is reserved by Karmada (names.IsReservedNamespace). */
export function isReservedNamespace(namespace: string): boolean {
  return (
    namespace === 'karmada-system' || namespace === 'karmada-cluster' || namespace.startsWith('karmada-es-')
  );
}

/** Compiled skip rules of a fleet config, built once per render. */
export interface SkipRules {
  namespaces: RegExp[];
  apis: readonly string[];
}

/** Returns the compiled skip rules (namespace regexes are anchored, as Karmada's flag is). */
export function compileSkipRules(config: FleetConfig): SkipRules {
  return {
    namespaces: config.skippedNamespaces.map((r) => new RegExp(`^(?:${r})$`)),
    apis: config.skippedApis,
  };
}

/** Returns whether a namespace matches the skipped-namespace rules. */
export function isSkippedNamespace(namespace: string, rules: SkipRules): boolean {
  return rules.namespaces.some((r) => r.test(namespace));
}

/**
 * Returns why a template is never propagated, or undefined. Karmada's detector EventFilter
 * (pkg/detector/detector.go) and skipped APIs:
 *
 * | rule                                                        | source                      |
 * |-------------------------------------------------------------|-----------------------------|
 * | namespace karmada-system, karmada-cluster, karmada-es-*     | names.IsReservedNamespace   |
 * | namespace matches --skipped-propagating-namespaces (kube-.*) | detector EventFilter        |
 * | kube-system/ConfigMap/extension-apiserver-authentication    | detector EventFilter        |
 * | Karmada groups, events.k8s.io, core Event, coordination Lease | util/apigroup.go          |
 * | `group`, `group/version` or `group/version/Kind` in skippedApis | --skipped-propagating-apis |
 * | label resourcetemplate.karmada.io/claimed-by                | detector (MultiClusterService) |
 */
export function skipReason(template: Template, rules: SkipRules): string | undefined {
  const { apiVersion, kind, namespace, name } = template.ref;
  if (namespace && isReservedNamespace(namespace)) return `namespace ${namespace} is reserved`;
  if (namespace && isSkippedNamespace(namespace, rules)) return `namespace ${namespace} is skipped`;
  if (kind === 'Namespace' && (isReservedNamespace(name) || isSkippedNamespace(name, rules))) {
    return `namespace ${name} is reserved or skipped`;
  }
  if (namespace === 'kube-system' && kind === 'ConfigMap' && name === 'extension-apiserver-authentication') {
    return 'kube-system/extension-apiserver-authentication is cluster-local';
  }
  const group = groupOf(apiVersion);
  if (skippedGroups.has(group)) return `API group ${group} is not propagated`;
  if (apiVersion === 'v1' && kind === 'Event') return 'Events are not propagated';
  if (apiVersion === 'coordination.k8s.io/v1' && kind === 'Lease') return 'Leases are not propagated';
  if (isSkippedApi(apiVersion, kind, rules.apis))
    return `API ${apiVersion} ${kind} is skipped by the fleet config`;
  if (template.object.metadata.labels?.[claimedByLabel] !== undefined) {
    return `claimed by ${template.object.metadata.labels[claimedByLabel]} (label ${claimedByLabel})`;
  }
  return undefined;
}

// Karmada's --skipped-propagating-apis entries: "group", "group/version" or "group/version/Kind"
// ("v1" style core versions are written with an empty group: "/v1/Event").
function isSkippedApi(apiVersion: string, kind: string, apis: readonly string[]): boolean {
  const group = groupOf(apiVersion);
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  for (const entry of apis) {
    const parts = entry.split('/');
    if (parts[0] !== group) continue;
    if (parts.length === 1) return true;
    if (parts[1] !== version) continue;
    if (parts.length === 2 || parts[2] === kind) return true;
  }
  return false;
}
