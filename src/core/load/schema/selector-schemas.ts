// The selectors Karmada's policies share (pkg/apis/policy/v1alpha1/propagation_types.go):
// metav1.LabelSelector, FieldSelector, ResourceSelector and ClusterAffinity, each written once.
import { anyValue, listOf, object, stringList, stringMap, type ObjectSchema } from './field-schema.js';

const selectorRequirement = object({ key: anyValue, operator: anyValue, values: stringList });

/** metav1.LabelSelector. */
export const labelSelector: ObjectSchema = object({
  matchLabels: stringMap,
  matchExpressions: listOf(selectorRequirement),
});

/** Karmada's FieldSelector (provider, region, zone requirements). */
export const fieldSelector: ObjectSchema = object({ matchExpressions: listOf(selectorRequirement) });

/** Karmada's ResourceSelector: which templates a policy selects. */
export const resourceSelector: ObjectSchema = object({
  apiVersion: anyValue,
  kind: anyValue,
  namespace: anyValue,
  name: anyValue,
  labelSelector,
});

/** The fields of Karmada's ClusterAffinity, shared by ClusterAffinityTerm. */
export const clusterAffinityFields = {
  labelSelector,
  fieldSelector,
  clusterNames: stringList,
  exclude: stringList,
} as const;

/** Karmada's ClusterAffinity (placement.clusterAffinity, targetCluster, staticWeightList[].targetCluster). */
export const clusterAffinity: ObjectSchema = object(clusterAffinityFields);
