// Karmada's Placement and the types inside it (pkg/apis/policy/v1alpha1/propagation_types.go):
// cluster affinity terms, tolerations, spread constraints, replica scheduling, workload affinity.
import { anyValue, listOf, object, type ObjectSchema } from './field-schema.js';
import { clusterAffinity, clusterAffinityFields } from './selector-schemas.js';

/** corev1.Toleration (placement.clusterTolerations). */
export const toleration: ObjectSchema = object({
  key: anyValue,
  operator: anyValue,
  value: anyValue,
  effect: anyValue,
  tolerationSeconds: anyValue,
});

/** corev1.Taint (a Cluster's spec.taints). */
export const taint: ObjectSchema = object({
  key: anyValue,
  value: anyValue,
  effect: anyValue,
  timeAdded: anyValue,
});

/** Karmada's SpreadConstraint. */
export const spreadConstraint: ObjectSchema = object({
  spreadByField: anyValue,
  spreadByLabel: anyValue,
  maxGroups: anyValue,
  minGroups: anyValue,
});

// ClusterAffinityTerm: a ClusterAffinity with a name; the terms of overflowAffinities have no
// overflow of their own.
const overflowAffinityTerm = object({ affinityName: anyValue, ...clusterAffinityFields });
const clusterAffinityTerm = object({
  affinityName: anyValue,
  ...clusterAffinityFields,
  overflowAffinities: listOf(overflowAffinityTerm),
});

/** Karmada's ReplicaSchedulingStrategy. */
export const replicaScheduling: ObjectSchema = object({
  replicaSchedulingType: anyValue,
  replicaDivisionPreference: anyValue,
  weightPreference: object({
    staticWeightList: listOf(object({ targetCluster: clusterAffinity, weight: anyValue })),
    dynamicWeight: anyValue,
  }),
});

const workloadAffinityTerm = object({ groupByLabelKey: anyValue });

/** Karmada's Placement. */
export const placement: ObjectSchema = object({
  clusterAffinity,
  clusterAffinities: listOf(clusterAffinityTerm),
  clusterTolerations: listOf(toleration),
  spreadConstraints: listOf(spreadConstraint),
  replicaScheduling,
  workloadAffinity: object({ affinity: workloadAffinityTerm, antiAffinity: workloadAffinityTerm }),
});
