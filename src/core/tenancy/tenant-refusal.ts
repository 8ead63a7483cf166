/** The rules a Tenant is checked by (docs/tenants.md#rules). */
export type TenantRule =
  | 'paths'
  | 'fleet-wide'
  | 'cluster-policies'
  | 'namespaces'
  | 'clusters'
  | 'kinds'
  | 'clusterScoped'
  | 'rbac'
  | 'policies';

/** Why a tenant may not do something: the tenant, the rule and the words. */
export interface TenantRefusal {
  tenant: string;
  rule: TenantRule;
  message: string;
}

/** Returns `Tenant/T (rule R): message (file)`, the text of a TenantRefused diagnostic. */
export function formatTenantRefusal(refusal: TenantRefusal, file: string): string {
  return `refused by Tenant/${refusal.tenant} (rule ${refusal.rule}): ${refusal.message} (${file})`;
}
