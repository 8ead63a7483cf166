// Selectors shared by every policy kind: label selectors, Karmada's field selector, cluster
// affinities and resource selectors, read and validated with Karmada's rules.
import { quoteText } from '../model/quote-text.js';
import type {
  ClusterAffinity,
  FieldSelector,
  FieldSelectorKey,
  FieldSelectorRequirement,
  LabelSelector,
  LabelSelectorOperator,
  LabelSelectorRequirement,
  ResourceSelector,
} from '../model/selectors.js';
import {
  childPath,
  compact,
  readRequiredEnum,
  readList,
  readMap,
  readRequiredString,
  readString,
  readStringList,
  readStringMap,
  type Issues,
} from './field-reader.js';

const LABEL_OPERATORS: readonly LabelSelectorOperator[] = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/**
 * Returns a metav1.LabelSelector. Rules (k8s.io/apimachinery metav1 validation): `In`/`NotIn`
 * need at least one value, `Exists`/`DoesNotExist` must have none.
 */
export function parseLabelSelector(value: unknown, path: string, issues: Issues): LabelSelector | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const matchLabels = readStringMap(map['matchLabels'], childPath(path, 'matchLabels'), issues);
  const matchExpressions = readList(
    map['matchExpressions'],
    childPath(path, 'matchExpressions'),
    issues,
    (v, p) => parseLabelRequirement(v, p, issues),
  );
  return compact<LabelSelector>({ matchLabels, matchExpressions });
}

function parseLabelRequirement(
  value: unknown,
  path: string,
  issues: Issues,
): LabelSelectorRequirement | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const key = readRequiredString(map['key'], childPath(path, 'key'), issues);
  const operator = readRequiredEnum(map['operator'], LABEL_OPERATORS, childPath(path, 'operator'), issues);
  const values = readStringList(map['values'], childPath(path, 'values'), issues);
  if (operator === undefined || key === undefined) return undefined;
  const hasValues = values !== undefined && values.length > 0;
  if ((operator === 'In' || operator === 'NotIn') && !hasValues) {
    issues.push({
      path: childPath(path, 'values'),
      message: `must be specified when operator is ${operator}`,
    });
  }
  if ((operator === 'Exists' || operator === 'DoesNotExist') && hasValues) {
    issues.push({
      path: childPath(path, 'values'),
      message: `may not be specified when operator is ${operator}`,
    });
  }
  return compact<LabelSelectorRequirement>({ key, operator, values });
}

const FIELD_KEYS: readonly FieldSelectorKey[] = ['provider', 'region', 'zone'];
// Karmada accepts only In and NotIn here (ValidatePolicyFieldSelector, pkg/util/validation/validation.go).
const FIELD_OPERATORS = ['In', 'NotIn'] as const;

/** Returns Karmada's FieldSelector: keys provider/region/zone, operators In/NotIn. */
export function parseFieldSelector(value: unknown, path: string, issues: Issues): FieldSelector | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const matchExpressions =
    readList(map['matchExpressions'], childPath(path, 'matchExpressions'), issues, (v, p) => {
      const item = readMap(v, p, issues);
      if (item === undefined) return undefined;
      const key = readRequiredEnum(item['key'], FIELD_KEYS, childPath(p, 'key'), issues);
      const operator = readRequiredEnum(item['operator'], FIELD_OPERATORS, childPath(p, 'operator'), issues);
      const values = readStringList(item['values'], childPath(p, 'values'), issues);
      if (key === undefined || operator === undefined) return undefined;
      return compact<FieldSelectorRequirement>({ key, operator, values });
    }) ?? [];
  return { matchExpressions };
}

/** Returns Karmada's ClusterAffinity (labelSelector, fieldSelector, clusterNames, exclude). */
export function parseClusterAffinity(
  value: unknown,
  path: string,
  issues: Issues,
): ClusterAffinity | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  return readClusterAffinityFields(map, path, issues);
}

/** Returns the ClusterAffinity fields of a map that may hold more (a ClusterAffinityTerm). */
export function readClusterAffinityFields(
  map: Record<string, unknown>,
  path: string,
  issues: Issues,
): ClusterAffinity {
  return compact<ClusterAffinity>({
    labelSelector: parseLabelSelector(map['labelSelector'], childPath(path, 'labelSelector'), issues),
    fieldSelector: parseFieldSelector(map['fieldSelector'], childPath(path, 'fieldSelector'), issues),
    clusterNames: readStringList(map['clusterNames'], childPath(path, 'clusterNames'), issues),
    exclude: readStringList(map['exclude'], childPath(path, 'exclude'), issues),
  });
}

/**
 * Returns resource selectors. For a namespaced policy (`policyNamespace` not empty) an empty
 * selector namespace is defaulted to the policy's (the PropagationPolicy and OverridePolicy
 * mutating webhooks), and then must equal it (validateResourceSelectors, validation.go).
 */
export function parseResourceSelectors(
  value: unknown,
  path: string,
  policyNamespace: string,
  issues: Issues,
): ResourceSelector[] | undefined {
  return readList(value, path, issues, (v, p) => {
    const map = readMap(v, p, issues);
    if (map === undefined) return undefined;
    const apiVersion = readRequiredString(map['apiVersion'], childPath(p, 'apiVersion'), issues);
    const kind = readRequiredString(map['kind'], childPath(p, 'kind'), issues);
    let namespace = readString(map['namespace'], childPath(p, 'namespace'), issues) || undefined;
    if (policyNamespace !== '') {
      namespace ??= policyNamespace;
      if (namespace !== policyNamespace) {
        issues.push({
          path: childPath(p, 'namespace'),
          message: `${quoteText(namespace)}: namespace of resource selector must be the same as the namespace of the policy`,
        });
      }
    }
    const name = readString(map['name'], childPath(p, 'name'), issues) || undefined;
    const labelSelector = parseLabelSelector(map['labelSelector'], childPath(p, 'labelSelector'), issues);
    if (apiVersion === undefined || kind === undefined) return undefined;
    return compact<ResourceSelector>({ apiVersion, kind, namespace, name, labelSelector });
  });
}
