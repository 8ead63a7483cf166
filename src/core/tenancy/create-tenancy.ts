// The render-time rules of tenants (docs/tenants.md#rules): what each copy of a tenant's template
// may be, where it may go, and whose policies may act on it. A refused copy is a TenantRefused
// error diagnostic for that object on that cluster, held like a failed override: the cluster
// keeps what it has for it.
//
// | rule      | refused                                                                          |
// |-----------|----------------------------------------------------------------------------------|
// | (object)  | what check-tenant-object.ts refuses, on every cluster the template is placed on   |
// | clusters  | a tenant's template on a cluster neither in its clusters.names nor matching its clusters.selector |
// | policies  | a template claimed by a tenant's PropagationPolicy, or changed by a tenant's OverridePolicy, that is not that tenant's |
import type { Binding } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Fleet, Template } from '../model/fleet.js';
import type { OverridePolicy } from '../model/override-policy.js';
import { policyLabel } from '../model/propagation-policy.js';
import type { Tenant } from '../model/tenant.js';
import { indexTenants } from '../load/index-tenants.js';
import { matchLabelSelector } from '../select/match-label-selector.js';
import { checkTenantObject } from './check-tenant-object.js';
import type { TenantRefusal } from './tenant-refusal.js';

/** The tenants' rules over one fleet's render. */
export interface Tenancy {
  /** Returns the tenant whose paths hold the template's file, if any. */
  ownerOf(template: Template): Tenant | undefined;
  /** Returns why the template's copy on the cluster is refused, or undefined. */
  checkCopy(opts: { template: Template; binding: Binding; cluster: Cluster }): TenantRefusal | undefined;
  /** Returns why override policies of a tenant may not change the template, or undefined. */
  checkOverrides(template: Template, policies: readonly OverridePolicy[]): TenantRefusal | undefined;
}

/** Returns the tenants' rules over a fleet, or undefined when it has no tenants (nothing is checked). */
export function createTenancy(fleet: Fleet): Tenancy | undefined {
  if (!fleet.tenants || fleet.tenants.length === 0) return undefined;
  const index = indexTenants(fleet.tenants);
  const policyFiles = new Map(fleet.propagationPolicies.map((p) => [policyLabel(p), p.source.file]));
  const objectVerdicts = new WeakMap<Template, TenantRefusal | null>();
  const ownerOf = (template: Template) => index.tenantOf(template.source.file);
  const objectVerdict = (tenant: Tenant, template: Template) => {
    let verdict = objectVerdicts.get(template);
    if (verdict === undefined)
      objectVerdicts.set(template, (verdict = checkTenantObject(tenant, template) ?? null));
    return verdict ?? undefined;
  };
  return {
    ownerOf,
    checkCopy({ template, binding, cluster }) {
      const owner = ownerOf(template);
      const policyFile = binding.policy ? policyFiles.get(policyLabel(binding.policy)) : undefined;
      const claimer = policyFile === undefined ? undefined : index.tenantOf(policyFile);
      if (claimer && claimer !== owner) {
        const what = `${policyLabel(binding.policy!)} (${policyFile})`;
        return {
          tenant: claimer.name,
          rule: 'policies',
          message: `${what} claims a template that is not the tenant's`,
        };
      }
      if (!owner) return undefined;
      const refused = objectVerdict(owner, template);
      if (refused) return refused;
      if (isTenantCluster(owner, cluster)) return undefined;
      return {
        tenant: owner.name,
        rule: 'clusters',
        message: `cluster ${cluster.name} is not one of its clusters`,
      };
    },
    checkOverrides(template, policies) {
      const owner = ownerOf(template);
      for (const policy of policies) {
        const tenant = index.tenantOf(policy.source.file);
        if (tenant && tenant !== owner) {
          const what = `${policy.kind}/${policy.namespace ? `${policy.namespace}/` : ''}${policy.name} (${policy.source.file})`;
          return {
            tenant: tenant.name,
            rule: 'policies',
            message: `${what} overrides a template that is not the tenant's`,
          };
        }
      }
      return undefined;
    },
  };
}

/** Returns whether a tenant may reach a cluster: named in its clusters, or matching their selector. */
export function isTenantCluster(tenant: Tenant, cluster: Cluster): boolean {
  if (tenant.clusters.names.includes(cluster.name)) return true;
  const { selector } = tenant.clusters;
  return selector !== undefined && matchLabelSelector(selector, cluster.labels);
}
