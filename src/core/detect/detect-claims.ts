import type { PreviousBinding } from '../model/binding.js';
import type { Template } from '../model/fleet.js';
import { policyLabel, type PolicyRef, type PropagationPolicy } from '../model/propagation-policy.js';
import { pickPolicy, policyMatches } from './pick-policy.js';
import { skipReason, type SkipRules } from './skip-rules.js';

/** A template claimed by the policy that propagates it. */
export interface Claim {
  template: Template;
  policy: PropagationPolicy;
  /** `sticky`: kept from the previous render; `matched`: newly matched; `preempted`: taken over. */
  how: 'sticky' | 'matched' | 'preempted';
}

export interface DetectInput {
  templates: readonly Template[];
  policies: readonly PropagationPolicy[];
  previous: ReadonlyMap<string, PreviousBinding>;
  skipRules: SkipRules;
}

export interface DetectResult {
  claims: Claim[];
  skipped: { template: Template; reason: string }[];
  unmatched: Template[];
}

/**
 * Returns which policy claims each template, following Karmada's detector
 * (pkg/detector/policy.go propagateResource, pkg/detector/preemption.go):
 *
 * 1. a template claimed before keeps its policy while that policy exists and still matches;
 * 2. unless preempted: a PropagationPolicy with `preemption: Always` takes templates claimed by
 *    a PropagationPolicy of strictly lower explicit priority, and any template claimed by a
 *    ClusterPropagationPolicy; a ClusterPropagationPolicy with `preemption: Always` takes only
 *    templates claimed by a ClusterPropagationPolicy of strictly lower priority;
 * 3. an unclaimed template goes to the best PropagationPolicy of its own namespace, else to
 *    the best ClusterPropagationPolicy (see pickPolicy for "best").
 */
export function detectClaims(input: DetectInput): DetectResult {
  const index = indexPolicies(input.policies);
  const result: DetectResult = { claims: [], skipped: [], unmatched: [] };
  for (const template of input.templates) {
    const detection = detectTemplate(
      template,
      index,
      input.previous.get(template.key)?.policy,
      input.skipRules,
    );
    addDetection(result, detection);
  }
  return result;
}

/** What detection decided for one template. */
export type Detection =
  | { type: 'claimed'; claim: Claim }
  | { type: 'skipped'; template: Template; reason: string }
  | { type: 'unmatched'; template: Template };

/** Adds one template's detection to a result, in template order. */
export function addDetection(result: DetectResult, detection: Detection): void {
  if (detection.type === 'claimed') result.claims.push(detection.claim);
  else if (detection.type === 'skipped')
    result.skipped.push({ template: detection.template, reason: detection.reason });
  else result.unmatched.push(detection.template);
}

/** Returns the detection of one template (see detectClaims), given the policies indexed once. */
export function detectTemplate(
  template: Template,
  index: PolicyIndex,
  previous: PolicyRef | undefined,
  skipRules: SkipRules,
): Detection {
  const reason = skipReason(template, skipRules);
  if (reason) return { type: 'skipped', template, reason };
  const namespaced = template.ref.namespace ? (index.byNamespace.get(template.ref.namespace) ?? []) : [];
  const claim = claimTemplate(template, namespaced, index, previous);
  return claim ? { type: 'claimed', claim } : { type: 'unmatched', template };
}

/** The policies by namespace and by reference, built once per render. */
export interface PolicyIndex {
  byNamespace: Map<string, PropagationPolicy[]>;
  cluster: PropagationPolicy[];
  byRef: Map<string, PropagationPolicy>;
}

export function indexPolicies(policies: readonly PropagationPolicy[]): PolicyIndex {
  const index: PolicyIndex = { byNamespace: new Map(), cluster: [], byRef: new Map() };
  for (const policy of policies) {
    index.byRef.set(policyLabel(policy), policy);
    if (policy.kind === 'ClusterPropagationPolicy') index.cluster.push(policy);
    else {
      const list = index.byNamespace.get(policy.namespace) ?? [];
      list.push(policy);
      index.byNamespace.set(policy.namespace, list);
    }
  }
  return index;
}

function claimTemplate(
  template: Template,
  namespaced: readonly PropagationPolicy[],
  index: PolicyIndex,
  previous: PolicyRef | undefined,
): Claim | undefined {
  const object = template.object;
  const held = previous ? index.byRef.get(policyLabel(previous)) : undefined;
  if (held && policyMatches(held, object)) {
    const preemptor = findPreemptor(held, object, namespaced, index.cluster);
    return preemptor
      ? { template, policy: preemptor, how: 'preempted' }
      : { template, policy: held, how: 'sticky' };
  }
  const policy = pickPolicy(object, namespaced) ?? pickPolicy(object, index.cluster);
  return policy ? { template, policy, how: 'matched' } : undefined;
}

function findPreemptor(
  held: PropagationPolicy,
  object: Template['object'],
  namespaced: readonly PropagationPolicy[],
  cluster: readonly PropagationPolicy[],
): PropagationPolicy | undefined {
  const eager = (p: PropagationPolicy) => p.preemption === 'Always' && p !== held;
  if (held.kind === 'PropagationPolicy') {
    return pickPolicy(
      object,
      namespaced.filter((p) => eager(p) && p.priority > held.priority),
    );
  }
  return (
    pickPolicy(object, namespaced.filter(eager)) ??
    pickPolicy(
      object,
      cluster.filter((p) => eager(p) && p.priority > held.priority),
    )
  );
}
