import type { Cluster } from '../model/cluster.js';
import type { ClusterAffinity, FieldSelectorRequirement } from '../model/selectors.js';
import { matchLabelSelector } from './match-label-selector.js';

/**
 * Returns whether a cluster satisfies a ClusterAffinity (Karmada's util.ClusterMatches,
 * pkg/util/selector.go): `exclude` wins first; then labelSelector AND fieldSelector AND
 * clusterNames, each only when set. `zone` is matched against the cluster's zones.
 */
export function clusterMatches(cluster: Cluster, affinity: ClusterAffinity): boolean {
  if (affinity.exclude?.includes(cluster.name)) return false;
  if (affinity.labelSelector && !matchLabelSelector(affinity.labelSelector, cluster.labels)) return false;
  if (
    affinity.fieldSelector &&
    !affinity.fieldSelector.matchExpressions.every((r) => matchField(r, cluster))
  ) {
    return false;
  }
  if (
    affinity.clusterNames &&
    affinity.clusterNames.length > 0 &&
    !affinity.clusterNames.includes(cluster.name)
  ) {
    return false;
  }
  return true;
}

/** Returns why a cluster fails an affinity, or undefined when it matches. */
export function explainAffinityMismatch(cluster: Cluster, affinity: ClusterAffinity): string | undefined {
  if (affinity.exclude?.includes(cluster.name)) return 'excluded by clusterAffinity.exclude';
  if (affinity.labelSelector && !matchLabelSelector(affinity.labelSelector, cluster.labels)) {
    return 'labels do not match clusterAffinity.labelSelector';
  }
  const field = affinity.fieldSelector?.matchExpressions.find((r) => !matchField(r, cluster));
  if (field)
    return `${field.key} does not satisfy fieldSelector ${field.key} ${field.operator} [${(field.values ?? []).join(', ')}]`;
  if (
    affinity.clusterNames &&
    affinity.clusterNames.length > 0 &&
    !affinity.clusterNames.includes(cluster.name)
  ) {
    return 'not in clusterAffinity.clusterNames';
  }
  return undefined;
}

function fieldValues(key: FieldSelectorRequirement['key'], cluster: Cluster): string[] {
  switch (key) {
    case 'provider':
      return cluster.provider ? [cluster.provider] : [];
    case 'region':
      return cluster.region ? [cluster.region] : [];
    case 'zone':
      return cluster.zones;
  }
}

// Karmada converts field requirements into a labels.Selector over {provider, region} and
// checks zones separately: for `zone`, In means some zone of the cluster is in the list,
// NotIn means none is (pkg/util/selector.go matchZones).
function matchField(req: FieldSelectorRequirement, cluster: Cluster): boolean {
  const values = fieldValues(req.key, cluster);
  const wanted = req.values ?? [];
  if (req.key === 'zone') return matchZones(req, values, wanted);
  const value = values[0];
  switch (req.operator) {
    case 'In':
      return value !== undefined && wanted.includes(value);
    case 'NotIn':
      return value === undefined || !wanted.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt':
      return compareNumeric(req.operator, value, wanted[0]);
  }
}

function matchZones(req: FieldSelectorRequirement, zones: string[], wanted: string[]): boolean {
  switch (req.operator) {
    case 'In':
      return zones.some((z) => wanted.includes(z));
    case 'NotIn':
      return zones.every((z) => !wanted.includes(z));
    case 'Exists':
      return zones.length > 0;
    case 'DoesNotExist':
      return zones.length === 0;
    default:
      return false;
  }
}

function compareNumeric(op: 'Gt' | 'Lt', value: string | undefined, bound: string | undefined): boolean {
  if (value === undefined || bound === undefined) return false;
  const a = Number(value);
  const b = Number(bound);
  if (!Number.isInteger(a) || !Number.isInteger(b)) return false;
  return op === 'Gt' ? a > b : a < b;
}
