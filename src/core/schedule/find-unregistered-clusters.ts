// A policy that names a cluster no Cluster document registers (a typo, a cluster retired but
// still listed) silently does less than it says: `clusterNames: [c1, ghost]` schedules to c1 only,
// an override for `ghost` never applies. Each such name is a warning on the policy, naming the
// field, the cluster and the policy's place in the repo.
import type { Diagnostic } from '../model/diagnostic.js';
import type { Cluster } from '../model/cluster.js';
import type { OverridePolicy } from '../model/override-policy.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';
import { quoteText } from '../model/quote-text.js';
import type { ClusterAffinity } from '../model/selectors.js';
import { locationLabel } from '../model/source-location.js';

/** The parts of a fleet the check reads. */
export interface PolicyClusters {
  clusters: readonly Cluster[];
  propagationPolicies: readonly PropagationPolicy[];
  overridePolicies: readonly OverridePolicy[];
}

/** Returns a warning for every cluster name in a policy that is not a registered cluster. */
export function findUnregisteredClusters(fleet: PolicyClusters): Diagnostic[] {
  const registered = new Set(fleet.clusters.map((c) => c.name));
  const warnings: Diagnostic[] = [];
  const check = (
    policy: PropagationPolicy | OverridePolicy,
    field: string,
    affinity: ClusterAffinity | undefined,
  ) => {
    for (const name of affinity?.clusterNames ?? []) {
      if (registered.has(name)) continue;
      const subject = policy.namespace
        ? `${policy.kind}/${policy.namespace}/${policy.name}`
        : `${policy.kind}/${policy.name}`;
      warnings.push({
        severity: 'warning',
        code: 'UnregisteredCluster',
        subject,
        message:
          `${field}.clusterNames: ${quoteText(name)} is not a registered cluster ` +
          `(no Cluster of that name in the fleet), at ${locationLabel(policy.source)}`,
      });
    }
  };
  for (const policy of fleet.propagationPolicies) {
    const { placement } = policy;
    check(policy, 'spec.placement.clusterAffinity', placement.clusterAffinity);
    placement.clusterAffinities?.forEach((term, i) =>
      check(policy, `spec.placement.clusterAffinities[${i}] (${term.affinityName})`, term),
    );
    placement.replicaScheduling.weightPreference?.staticWeightList?.forEach((w, i) =>
      check(
        policy,
        `spec.placement.replicaScheduling.weightPreference.staticWeightList[${i}].targetCluster`,
        w.targetCluster,
      ),
    );
  }
  for (const policy of fleet.overridePolicies) {
    policy.overrideRules.forEach((rule, i) =>
      check(policy, `spec.overrideRules[${i}].targetCluster`, rule.targetCluster),
    );
  }
  return warnings;
}
