// Which objects a policy's matchConstraints and a binding's matchResources select, as the API
// server decides for a request (admission/plugin/policy/matching): a resource rule must take the
// object and no exclude rule may; the namespaceSelector is matched against the labels of the
// object's Namespace as placed on the cluster (a Namespace against its own; a cluster-scoped
// object always passes it); the objectSelector against the object's labels.
//
// | field        | gitfleet's reading (docs/admission-policies.md#matching)                                        |
// |--------------|--------------------------------------------------------------------------------------------------|
// | operations   | an apply is a CREATE or an UPDATE: a rule with either (or `*`) takes the object                  |
// | resources    | the kind's resource name, guessed as Kubernetes guesses it (lower case, plural); `*` any; subresources never |
// | apiVersions  | with matchPolicy Exact the object's version must be listed; Equivalent takes any version of the group |
// | scope        | `Cluster`, `Namespaced` or `*` (the default)                                                     |
import { groupOf } from '../model/object-ref.js';
import type { KubeObject } from '../model/kube-object.js';
import { matchLabelSelector } from '../select/match-label-selector.js';
import type { MatchResources, ResourceRule } from './admission-policy.js';

/** What the match is decided on: the object and the labels of its Namespace on the cluster. */
export interface MatchSubject {
  object: KubeObject;
  /** The labels of its Namespace (undefined for a cluster-scoped object). */
  namespaceLabels: Readonly<Record<string, string>> | undefined;
}

/** Kinds whose resource name is not the guessed plural. */
const irregular: Readonly<Record<string, string>> = { Endpoints: 'endpoints' };

/** Returns the resource name of a kind as Kubernetes guesses it (meta.UnsafeGuessKindToResource). */
export function resourceOf(kind: string): string {
  if (irregular[kind]) return irregular[kind];
  const lower = kind.toLowerCase();
  if (lower.endsWith('s')) return `${lower}es`;
  if (lower.endsWith('y')) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

/**
 * Returns whether the match resources select the object. A policy's matchConstraints must name
 * its resourceRules (undefined selects nothing); a binding's matchResources without them narrows
 * by its selectors only (`rulesOptional`).
 */
export function matchesResources(
  match: MatchResources | undefined,
  subject: MatchSubject,
  rulesOptional = false,
): boolean {
  if (!match) return false;
  const { object } = subject;
  const labels = object.metadata.labels ?? {};
  if (match.objectSelector && !matchLabelSelector(match.objectSelector, labels)) return false;
  if (match.namespaceSelector) {
    const nsLabels =
      object.kind === 'Namespace' && groupOf(object.apiVersion) === '' ? labels : subject.namespaceLabels;
    if (nsLabels && !matchLabelSelector(match.namespaceSelector, nsLabels)) return false;
  }
  if (match.excludeResourceRules.some((r) => matchesRule(r, object, match.matchPolicy))) return false;
  if (rulesOptional && match.resourceRules.length === 0) return true;
  return match.resourceRules.some((r) => matchesRule(r, object, match.matchPolicy));
}

/** Returns the operation a rule takes an apply as: CREATE, or UPDATE when it names only UPDATE. */
export function operationOf(match: MatchResources | undefined, object: KubeObject): 'CREATE' | 'UPDATE' {
  const rule = match?.resourceRules.find((r) => matchesRule(r, object, match.matchPolicy));
  const ops = rule?.operations ?? [];
  return ops.includes('UPDATE') && !ops.includes('CREATE') && !ops.includes('*') ? 'UPDATE' : 'CREATE';
}

function matchesRule(rule: ResourceRule, object: KubeObject, policy: MatchResources['matchPolicy']): boolean {
  const group = groupOf(object.apiVersion);
  const version = object.apiVersion.includes('/') ? object.apiVersion.split('/')[1]! : object.apiVersion;
  const namespaced = object.metadata.namespace !== undefined && object.metadata.namespace !== '';
  const any = (list: string[], value: string) => list.includes('*') || list.includes(value);
  if (!rule.operations.some((op) => op === '*' || op === 'CREATE' || op === 'UPDATE')) return false;
  if (!any(rule.apiGroups, group)) return false;
  if (policy === 'Exact' && !any(rule.apiVersions, version)) return false;
  if (!rule.resources.some((r) => r === '*' || r === resourceOf(object.kind))) return false;
  if (rule.resourceNames.length > 0 && !rule.resourceNames.includes(object.metadata.name)) return false;
  if (rule.scope === 'Cluster' && namespaced) return false;
  if (rule.scope === 'Namespaced' && !namespaced) return false;
  return true;
}
