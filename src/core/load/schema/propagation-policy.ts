// The fields of PropagationPolicy and ClusterPropagationPolicy (policy.karmada.io/v1alpha1),
// which share PropagationSpec (pkg/apis/policy/v1alpha1/propagation_types.go; the CRDs
// policy.karmada.io_propagationpolicies.yaml and _clusterpropagationpolicies.yaml). Every field
// Karmada accepts is here, including those gitfleet does not act on.
import { anyValue, listOf, object, stringList, type ObjectSchema } from './field-schema.js';
import { topLevel } from './object-meta.js';
import { placement } from './placement-schema.js';
import { resourceSelector } from './selector-schemas.js';

const statePreservation = object({ rules: listOf(object({ aliasLabelName: anyValue, jsonPath: anyValue })) });

const failover = object({
  application: object({
    decisionConditions: object({ tolerationSeconds: anyValue }),
    purgeMode: anyValue,
    gracePeriodSeconds: anyValue,
    statePreservation,
  }),
  cluster: object({ purgeMode: anyValue, statePreservation }),
});

/** PropagationSpec. */
export const propagationSpec: ObjectSchema = object({
  resourceSelectors: listOf(resourceSelector),
  association: anyValue,
  propagateDeps: anyValue,
  placement,
  priority: anyValue,
  preemption: anyValue,
  dependentOverrides: stringList,
  schedulerName: anyValue,
  failover,
  conflictResolution: anyValue,
  activationPreference: anyValue,
  suspension: object({ dispatching: anyValue, dispatchingOnClusters: object({ clusterNames: stringList }) }),
  preserveResourcesOnDeletion: anyValue,
  schedulePriority: object({ priorityClassSource: anyValue, priorityClassName: anyValue }),
});

/** A PropagationPolicy or ClusterPropagationPolicy document. */
export const propagationPolicySchema: ObjectSchema = topLevel({ spec: propagationSpec });
