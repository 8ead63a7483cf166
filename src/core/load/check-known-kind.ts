// The API groups gitfleet understands, with the versions and kinds each serves. A document in one
// of these groups whose version or kind is not listed is an error, as Karmada's API server
// answers "no matches for kind" (a typo would otherwise be taken for a template of the group and
// skipped in silence). Kinds gitfleet does not act on (Work, ResourceBinding, …) are listed
// so that they load, and detect skips them as Karmada's groups (detect/skip-rules.ts).
//
// | group                   | version  | kinds                                                      | Karmada source |
// |-------------------------|----------|------------------------------------------------------------|----------------|
// | cluster.karmada.io      | v1alpha1 | Cluster                                                    | pkg/apis/cluster/v1alpha1 |
// | policy.karmada.io       | v1alpha1 | Propagation/Override policies (and Cluster*), FederatedResourceQuota, ClusterTaintPolicy | pkg/apis/policy/v1alpha1 |
// | work.karmada.io         | v1alpha1 | Work, ResourceBinding, ClusterResourceBinding              | pkg/apis/work/v1alpha1 |
// | work.karmada.io         | v1alpha2 | ResourceBinding, ClusterResourceBinding                    | pkg/apis/work/v1alpha2 |
// | config.karmada.io       | v1alpha1 | ResourceInterpreterCustomization, ResourceInterpreterWebhookConfiguration | pkg/apis/config/v1alpha1 |
// | networking.karmada.io   | v1alpha1 | MultiClusterService, MultiClusterIngress                   | pkg/apis/networking/v1alpha1 |
// | autoscaling.karmada.io  | v1alpha1 | FederatedHPA, CronFederatedHPA                             | pkg/apis/autoscaling/v1alpha1 |
// | remedy.karmada.io       | v1alpha1 | Remedy                                                     | pkg/apis/remedy/v1alpha1 |
// | apps.karmada.io         | v1alpha1 | WorkloadRebalancer                                         | pkg/apis/apps/v1alpha1 |
// | gitfleet.io             | v1alpha1 | FleetConfig, RolloutStrategy, ClusterRolloutStrategy, HelmSource, KustomizeSource, NotificationPolicy | gitfleet's own |
import { suggestField } from './schema/suggest-field.js';

const POLICY_KINDS = [
  'PropagationPolicy',
  'ClusterPropagationPolicy',
  'OverridePolicy',
  'ClusterOverridePolicy',
  'FederatedResourceQuota',
  'ClusterTaintPolicy',
];

const KNOWN: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>> = new Map(
  Object.entries({
    'cluster.karmada.io': { v1alpha1: ['Cluster'] },
    'policy.karmada.io': { v1alpha1: POLICY_KINDS },
    'work.karmada.io': {
      v1alpha1: ['Work', 'ResourceBinding', 'ClusterResourceBinding'],
      v1alpha2: ['ResourceBinding', 'ClusterResourceBinding'],
    },
    'config.karmada.io': {
      v1alpha1: ['ResourceInterpreterCustomization', 'ResourceInterpreterWebhookConfiguration'],
    },
    'networking.karmada.io': { v1alpha1: ['MultiClusterService', 'MultiClusterIngress'] },
    'autoscaling.karmada.io': { v1alpha1: ['FederatedHPA', 'CronFederatedHPA'] },
    'remedy.karmada.io': { v1alpha1: ['Remedy'] },
    'apps.karmada.io': { v1alpha1: ['WorkloadRebalancer'] },
    'gitfleet.io': {
      v1alpha1: [
        'FleetConfig',
        'RolloutStrategy',
        'ClusterRolloutStrategy',
        'HelmSource',
        'KustomizeSource',
        'NotificationPolicy',
      ],
    },
  }).map(([group, versions]) => [group, new Map(Object.entries(versions))]),
);

/**
 * Returns why a document's apiVersion and kind name nothing in a group gitfleet understands
 * (unknown version, or unknown kind in a known version, with a suggestion), or undefined when the
 * kind is known or its group is not one of gitfleet's.
 */
export function checkKnownKind(apiVersion: string, kind: string): string | undefined {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return undefined;
  const group = apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const versions = KNOWN.get(group);
  if (versions === undefined) return undefined;
  const kinds = versions.get(version);
  if (kinds === undefined) {
    return `${apiVersion} is not a version gitfleet knows; known: ${[...versions.keys()].join(', ')}`;
  }
  if (kinds.includes(kind)) return undefined;
  const elsewhere = [...versions].filter(([, k]) => k.includes(kind)).map(([v]) => v);
  const noMatch = `no matches for kind ${kind} in ${apiVersion}`;
  if (elsewhere.length > 0) return `${noMatch} (it is served in ${elsewhere.join(', ')})`;
  const meant = suggestField(kind, kinds);
  return meant === undefined ? noMatch : `${noMatch}; did you mean ${meant}?`;
}
