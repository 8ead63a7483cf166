// OverridePolicy and ClusterOverridePolicy (policy.karmada.io/v1alpha1).
//
// Defaults (pkg/webhook/overridepolicy/mutating.go; ClusterOverridePolicy has no mutating webhook):
// an OverridePolicy's selectors without a namespace get the policy's namespace.
//
// The deprecated top-level `targetCluster` + `overriders` form is folded into one override rule,
// as Karmada's override manager does whenever `overrideRules` is empty
// (getOverridersFromOverridePolicies, pkg/util/overridemanager/overridemanager.go).
//
// Checks (ValidateOverrideSpec, pkg/util/validation/validation.go): `overrideRules` cannot co-exist
// with `targetCluster` or with non-empty `overriders`; an OverridePolicy selects only its own
// namespace; cluster affinities and overriders as in parse-selectors.ts and parse-overriders.ts.
// Where Karmada leaves the deprecated `overriders` unchecked, we check them like a rule's: they
// are applied the same way.
import type { OverridePolicy, OverridePolicyKind, OverrideRule } from '../model/override-policy.js';
import { childPath, compact, isAbsent, readList, readMap, type Issues } from './field-reader.js';
import { hasNoOverriders, parseOverriders } from './parse-overriders.js';
import type { PolicyDocument } from './parse-propagation-policy.js';
import { parseClusterAffinity, parseResourceSelectors } from './parse-selectors.js';

/** Returns the typed override policy with one list of rules, or the list of problems found in it. */
export function parseOverridePolicy(
  doc: PolicyDocument<OverridePolicyKind>,
): { ok: true; policy: OverridePolicy } | { ok: false; issues: Issues } {
  const issues: Issues = [];
  const spec = readMap(doc.object['spec'], 'spec', issues) ?? {};
  const resourceSelectors = parseResourceSelectors(
    spec['resourceSelectors'],
    'spec.resourceSelectors',
    doc.kind === 'OverridePolicy' ? doc.namespace : '',
    issues,
  );
  const policy = compact<OverridePolicy>({
    kind: doc.kind,
    name: doc.name,
    namespace: doc.namespace,
    resourceSelectors,
    overrideRules: readOverrideRules(spec, issues),
    source: doc.source,
  });
  return issues.length === 0 ? { ok: true, policy } : { ok: false, issues };
}

function readOverrideRules(spec: Record<string, unknown>, issues: Issues): OverrideRule[] {
  const rules =
    readList(spec['overrideRules'], 'spec.overrideRules', issues, (v, p) => {
      const map = readMap(v, p, issues);
      if (map === undefined) return undefined;
      if (isAbsent(map['overriders']))
        issues.push({ path: childPath(p, 'overriders'), message: 'is required' });
      return compact<OverrideRule>({
        targetCluster: parseClusterAffinity(map['targetCluster'], childPath(p, 'targetCluster'), issues),
        overriders: parseOverriders(map['overriders'], childPath(p, 'overriders'), issues),
      });
    }) ?? [];
  const targetCluster = parseClusterAffinity(spec['targetCluster'], 'spec.targetCluster', issues);
  const overriders = parseOverriders(spec['overriders'], 'spec.overriders', issues);
  const hasRules = !isAbsent(spec['overrideRules']);
  if (hasRules && targetCluster !== undefined) {
    issues.push({ path: 'spec.targetCluster', message: "overrideRules and targetCluster can't co-exist" });
  }
  if (hasRules && !hasNoOverriders(overriders)) {
    issues.push({ path: 'spec.overriders', message: "overrideRules and overriders can't co-exist" });
  }
  if (rules.length > 0) return rules;
  return [compact<OverrideRule>({ targetCluster, overriders })];
}
