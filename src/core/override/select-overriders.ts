import type { Cluster } from '../model/cluster.js';
import type { KubeObject } from '../model/kube-object.js';
import type { OverridePolicy, Overriders } from '../model/override-policy.js';
import { clusterMatches } from '../select/cluster-matches.js';
import {
  PriorityMatchAll,
  PriorityMisMatch,
  selectorsPriority,
  type SelectorPriority,
} from '../select/selector-priority.js';

/** One override rule that applies to an object on a cluster, with where it came from. */
export interface SelectedOverriders {
  policy: OverridePolicy;
  /** The rule's index in `policy.overrideRules`. */
  ruleIndex: number;
  overriders: Overriders;
}

/**
 * Returns the override rules for an object on one cluster, in the order Karmada applies them
 * (pkg/util/overridemanager/overridemanager.go ApplyOverridePolicies, getOverridersFromOverridePolicies):
 *
 * 1. ClusterOverridePolicies, for every object; then
 * 2. OverridePolicies of the object's own namespace, for namespaced objects only ("no matter the
 *    resources propagated by ClusterPropagationPolicy or PropagationPolicy"); skipped with
 *    `clusterPoliciesOnly` (Namespaces the namespace controller propagates get only the former).
 *
 * Within each set, a policy applies when it has no resourceSelectors or one of them matches; the
 * policies are ordered by implicit priority ascending (no selectors counts as match-all, then
 * label selector, then name), then by name; each rule whose targetCluster is absent or matches
 * the cluster contributes, in list order. Later rules therefore win where they touch the same field.
 */
export function selectOverriders(opts: {
  object: KubeObject;
  cluster: Cluster;
  policies: readonly OverridePolicy[];
  clusterPoliciesOnly?: boolean;
}): SelectedOverriders[] {
  const { object, cluster, policies } = opts;
  const namespace = object.metadata.namespace ?? '';
  const clusterWide = policies.filter((p) => p.kind === 'ClusterOverridePolicy');
  const namespaced =
    opts.clusterPoliciesOnly || namespace === ''
      ? []
      : policies.filter((p) => p.kind === 'OverridePolicy' && p.namespace === namespace);
  return [...orderPolicies(clusterWide, object), ...orderPolicies(namespaced, object)].flatMap((policy) =>
    rulesFor(policy, cluster),
  );
}

function orderPolicies(policies: readonly OverridePolicy[], object: KubeObject): OverridePolicy[] {
  return policies
    .map((policy) => ({ policy, priority: implicitPriority(policy, object) }))
    .filter(({ priority }) => priority !== PriorityMisMatch)
    .sort((a, b) => a.priority - b.priority || compareNames(a.policy.name, b.policy.name))
    .map(({ policy }) => policy);
}

function implicitPriority(policy: OverridePolicy, object: KubeObject): SelectorPriority {
  const selectors = policy.resourceSelectors ?? [];
  return selectors.length === 0 ? PriorityMatchAll : selectorsPriority(selectors, object);
}

function rulesFor(policy: OverridePolicy, cluster: Cluster): SelectedOverriders[] {
  return policy.overrideRules.flatMap((rule, ruleIndex) =>
    !rule.targetCluster || clusterMatches(cluster, rule.targetCluster)
      ? [{ policy, ruleIndex, overriders: rule.overriders }]
      : [],
  );
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
