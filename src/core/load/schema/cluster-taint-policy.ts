// The fields of a ClusterTaintPolicy (policy.karmada.io/v1alpha1; pkg/apis/policy/v1alpha1/clustertaint_types.go
// and the CRD policy.karmada.io_clustertaintpolicies.yaml), as parse-cluster-taint-policy.ts reads them.
import { anyValue, listOf, object, type ObjectSchema } from './field-schema.js';
import { topLevel } from './object-meta.js';
import { clusterAffinity } from './selector-schemas.js';

const matchCondition = object({ conditionType: anyValue, operator: anyValue, statusValues: anyValue });

/** A ClusterTaintPolicy document. */
export const clusterTaintPolicySchema: ObjectSchema = topLevel({
  spec: object({
    targetClusters: clusterAffinity,
    addOnConditions: listOf(matchCondition),
    removeOnConditions: listOf(matchCondition),
    taints: listOf(object({ key: anyValue, effect: anyValue, value: anyValue })),
  }),
});
