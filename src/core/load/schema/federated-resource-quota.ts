// The fields of Karmada's FederatedResourceQuota (policy.karmada.io/v1alpha1;
// core/load/parse-federated-resource-quota.ts). `status` is Karmada's to write: allowed, not read.
import { anyValue, listOf, object, type ObjectSchema } from './field-schema.js';
import { topLevel } from './object-meta.js';

/** A FederatedResourceQuota document. */
export const federatedResourceQuotaSchema: ObjectSchema = topLevel({
  spec: object({
    overall: anyValue,
    staticAssignments: listOf(object({ clusterName: anyValue, hard: anyValue })),
  }),
  status: anyValue,
});
