// Which kinds are checked for unknown fields, and how strictly:
//
// | kinds                                                   | unknown field | why |
// |---------------------------------------------------------|---------------|-----|
// | Cluster, PropagationPolicy, ClusterPropagationPolicy, OverridePolicy, ClusterOverridePolicy, ClusterTaintPolicy, ResourceInterpreterCustomization, WorkloadRebalancer, gitfleet's FleetConfig, RolloutStrategy, ClusterRolloutStrategy, Tenant, NotificationPolicy, FederatedResourceQuota, HelmSource and KustomizeSource | error | Karmada's CRDs are structural and its API server refuses them; a typo in a policy otherwise changes where a template goes |
// | built-in kinds of builtin-field-data.ts (Deployment, …)  | warning       | as the API server's default field validation (Warn) does on apply: it drops the field and warns; the data is from one Kubernetes version, and a member cluster may be newer |
// | anything else (custom resources, other versions)         | not checked   | their schema is in CRDs the fleet may not hold |
import { builtinSchema } from './builtin-schemas.js';
import { clusterSchema } from './cluster.js';
import { clusterTaintPolicySchema } from './cluster-taint-policy.js';
import type { FieldSchema } from './field-schema.js';
import { fleetConfigSchema } from './fleet-config.js';
import { overridePolicySchema } from './override-policy.js';
import { propagationPolicySchema } from './propagation-policy.js';
import { resourceInterpreterCustomizationSchema } from './resource-interpreter-customization.js';
import { rolloutStrategySchema } from './rollout-strategy.js';
import { tenantSchema } from './tenant.js';
import { notificationPolicySchema } from './notification-policy.js';
import { federatedResourceQuotaSchema } from './federated-resource-quota.js';
import { workloadRebalancerSchema } from './workload-rebalancer.js';
import { helmSourceSchema, kustomizeSourceSchema } from './template-source.js';

/** How a kind's unknown fields are reported. */
export type Strictness = 'error' | 'warning';

/** A kind's schema and how its unknown fields are reported. */
export interface KindSchema {
  schema: FieldSchema;
  strictness: Strictness;
}

const STRICT_KINDS: ReadonlyMap<string, FieldSchema> = new Map<string, FieldSchema>([
  ['cluster.karmada.io/v1alpha1 Cluster', clusterSchema],
  ['policy.karmada.io/v1alpha1 PropagationPolicy', propagationPolicySchema],
  ['policy.karmada.io/v1alpha1 ClusterPropagationPolicy', propagationPolicySchema],
  ['policy.karmada.io/v1alpha1 OverridePolicy', overridePolicySchema],
  ['policy.karmada.io/v1alpha1 ClusterOverridePolicy', overridePolicySchema],
  ['policy.karmada.io/v1alpha1 ClusterTaintPolicy', clusterTaintPolicySchema],
  ['config.karmada.io/v1alpha1 ResourceInterpreterCustomization', resourceInterpreterCustomizationSchema],
  ['gitfleet.io/v1alpha1 FleetConfig', fleetConfigSchema],
  ['apps.karmada.io/v1alpha1 WorkloadRebalancer', workloadRebalancerSchema],
  ['gitfleet.io/v1alpha1 RolloutStrategy', rolloutStrategySchema],
  ['gitfleet.io/v1alpha1 ClusterRolloutStrategy', rolloutStrategySchema],
  ['gitfleet.io/v1alpha1 Tenant', tenantSchema],
  ['gitfleet.io/v1alpha1 NotificationPolicy', notificationPolicySchema],
  ['policy.karmada.io/v1alpha1 FederatedResourceQuota', federatedResourceQuotaSchema],
  ['gitfleet.io/v1alpha1 HelmSource', helmSourceSchema],
  ['gitfleet.io/v1alpha1 KustomizeSource', kustomizeSourceSchema],
]);

/** Returns the schema a document of this apiVersion and kind is checked against, if any. */
export function kindSchema(apiVersion: string, kind: string): KindSchema | undefined {
  const strict = STRICT_KINDS.get(`${apiVersion} ${kind}`);
  if (strict !== undefined) return { schema: strict, strictness: 'error' };
  const builtin = builtinSchema(apiVersion, kind);
  return builtin === undefined ? undefined : { schema: builtin, strictness: 'warning' };
}
