import type { KubeObject } from '../model/kube-object.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';
import { selectorsPriority } from '../select/selector-priority.js';

interface Candidate {
  policy: PropagationPolicy;
  implicit: number;
}

/**
 * Returns the policy that wins an object among `policies`, or undefined when none matches.
 * Karmada's getHighestPriorityPropagationPolicy (pkg/detector/compare.go):
 *
 * 1. policies whose selectors do not match are skipped;
 * 2. higher explicit `priority` wins;
 * 3. equal explicit priority: higher implicit priority (name 3 > labelSelector 2 > kind only 1);
 * 4. equal both: the lexicographically smaller policy name wins.
 */
export function pickPolicy(
  object: KubeObject,
  policies: readonly PropagationPolicy[],
): PropagationPolicy | undefined {
  let best: Candidate | undefined;
  for (const policy of policies) {
    const implicit = selectorsPriority(policy.resourceSelectors, object);
    if (implicit === 0) continue;
    const candidate = { policy, implicit };
    if (!best || outranks(candidate, best)) best = candidate;
  }
  return best?.policy;
}

function outranks(a: Candidate, b: Candidate): boolean {
  if (a.policy.priority !== b.policy.priority) return a.policy.priority > b.policy.priority;
  if (a.implicit !== b.implicit) return a.implicit > b.implicit;
  return a.policy.name < b.policy.name;
}

/** Returns whether a policy's selectors match an object. */
export function policyMatches(policy: PropagationPolicy, object: KubeObject): boolean {
  return selectorsPriority(policy.resourceSelectors, object) > 0;
}
