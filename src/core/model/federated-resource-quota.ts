import type { SourceLocation } from './source-location.js';

/** A resource list as written (Kubernetes' ResourceList): resource name → quantity text. */
export type ResourceList = Readonly<Record<string, string>>;

/** One cluster's hard limits (Karmada's StaticClusterAssignment). */
export interface StaticClusterAssignment {
  clusterName: string;
  hard: ResourceList;
}

/**
 * Karmada's FederatedResourceQuota (policy.karmada.io/v1alpha1, namespaced): the overall limits of
 * one namespace across every cluster, and the ResourceQuota each listed cluster gets
 * (docs/federated-resource-quota.md).
 */
export interface FederatedResourceQuota {
  namespace: string;
  name: string;
  overall: ResourceList;
  staticAssignments: readonly StaticClusterAssignment[];
  source: SourceLocation;
}

/** Returns `FederatedResourceQuota/NS/NAME`, how messages name a quota. */
export function quotaLabel(quota: { namespace: string; name: string }): string {
  return `FederatedResourceQuota/${quota.namespace}/${quota.name}`;
}

/** One cluster's ResourceQuota made from a static assignment, as its agent reports it (Karmada's ClusterQuotaStatus). */
export interface ClusterQuotaStatus {
  clusterName: string;
  hard: Record<string, string>;
  used: Record<string, string>;
}

/** A FederatedResourceQuota with its status, as the hub records it (core/quota/quota-status.ts). */
export interface QuotaStatusView {
  namespace: string;
  name: string;
  overall: Record<string, string>;
  overallUsed: Record<string, string>;
  aggregatedStatus: ClusterQuotaStatus[];
}
