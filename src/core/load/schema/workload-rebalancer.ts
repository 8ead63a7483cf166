// The fields of a WorkloadRebalancer (apps.karmada.io/v1alpha1; pkg/apis/apps/v1alpha1/
// workloadrebalancer_types.go). Status is accepted, as the API server accepts it, though the hub
// records the status on the bindings branch instead (core/failover/rebalance.ts).
import { anyValue, listOf, object, type ObjectSchema } from './field-schema.js';
import { topLevel } from './object-meta.js';

const objectReference = object({ apiVersion: anyValue, kind: anyValue, name: anyValue, namespace: anyValue });

/** A WorkloadRebalancer document. */
export const workloadRebalancerSchema: ObjectSchema = topLevel({
  spec: object({ workloads: listOf(objectReference), ttlSecondsAfterFinished: anyValue }),
  status: anyValue,
});
