// The load-time rules of tenants (docs/tenants.md#rules): who owns each file, and the documents
// a tenant's files may not hold. A breach fails the load (the hub keeps every branch as it is):
// these documents steer the whole fleet, so no part of it is rendered without them.
//
// | rule              | refused                                                                        |
// |-------------------|--------------------------------------------------------------------------------|
// | paths             | a file two tenants' paths hold; two tenants writing the same pattern             |
// | fleet-wide        | a Tenant, Cluster, FleetConfig, ClusterTaintPolicy, ResourceInterpreterCustomization, WorkloadRebalancer, ClusterRolloutStrategy or FederatedResourceQuota in a tenant's file |
// | cluster-policies  | a ClusterPropagationPolicy or ClusterOverridePolicy in a tenant's file (it selects every tenant's templates) |
// | namespaces        | a PropagationPolicy, OverridePolicy or RolloutStrategy of a tenant outside its namespaces |
import type { SourceLocation } from '../model/source-location.js';
import type { Tenant } from '../model/tenant.js';
import type { Collection } from './collect-documents.js';
import type { TenantIndex } from './index-tenants.js';
import type { LoadError } from './load-error.js';

/** Returns every breach of the load-time tenant rules in the collected documents of `files`. */
export function checkTenantFiles(opts: {
  collection: Collection;
  /** The fleet files the load read. */
  files: readonly string[];
  index: TenantIndex;
  /** Where the FleetConfig is, when there is one. */
  fleetConfig: SourceLocation | undefined;
}): LoadError[] {
  const { collection: c, files, index } = opts;
  if (index.tenants.length === 0) return [];
  const errors: LoadError[] = [...samePatterns(index.tenants)];
  for (const file of files) {
    const owners = index.tenantsOf(file);
    if (owners.length > 1) {
      const names = owners.map((t) => `Tenant/${t.name}`).join(' and ');
      errors.push({
        code: 'InvalidTenant',
        file,
        message: `${file}: owned by ${names} (rule paths): a file has one tenant`,
      });
    }
  }
  const refuse = (what: string, source: SourceLocation, rule: string, why: string) => {
    const tenant = index.tenantOf(source.file);
    if (tenant === undefined) return;
    const message = `${what}: in ${source.file} of Tenant/${tenant.name} (rule ${rule}): ${why}`;
    errors.push({ code: 'InvalidTenant', ...source, message });
  };
  const fleetWide = 'only the platform (a file outside every tenant) may hold it';
  if (opts.fleetConfig) refuse('FleetConfig', opts.fleetConfig, 'fleet-wide', fleetWide);
  for (const t of c.tenants) refuse(`Tenant/${t.name}`, t.source, 'fleet-wide', fleetWide);
  for (const x of c.clusters) refuse(`Cluster/${x.name}`, x.source, 'fleet-wide', fleetWide);
  for (const p of c.clusterTaintPolicies)
    refuse(`ClusterTaintPolicy/${p.name}`, p.source, 'fleet-wide', fleetWide);
  for (const x of c.interpreterCustomizations)
    refuse(`ResourceInterpreterCustomization/${x.name}`, x.source, 'fleet-wide', fleetWide);
  for (const w of c.workloadRebalancers)
    refuse(`WorkloadRebalancer/${w.name}`, w.source, 'fleet-wide', fleetWide);
  // A quota limits the tenant: a tenant's file may not set its own.
  for (const q of c.federatedResourceQuotas)
    refuse(`FederatedResourceQuota/${q.namespace}/${q.name}`, q.source, 'fleet-wide', fleetWide);
  const namespaced = [...c.propagationPolicies, ...c.overridePolicies, ...c.rolloutStrategies];
  for (const p of namespaced) {
    const tenant = index.tenantOf(p.source.file);
    if (tenant === undefined) continue;
    if (p.kind.startsWith('Cluster')) {
      const why =
        p.kind === 'ClusterRolloutStrategy'
          ? fleetWide
          : 'a cluster-wide policy selects every tenant’s templates';
      refuse(
        `${p.kind}/${p.name}`,
        p.source,
        p.kind === 'ClusterRolloutStrategy' ? 'fleet-wide' : 'cluster-policies',
        why,
      );
    } else if (!tenant.namespaces.includes(p.namespace))
      refuse(`${p.kind}/${p.namespace}/${p.name}`, p.source, 'namespaces', namespacesText(tenant));
  }
  return errors;
}

/** Returns `namespace X is not one of …`-style words for a tenant's namespaces. */
export function namespacesText(tenant: Tenant): string {
  return tenant.namespaces.length === 0
    ? 'the tenant has no namespaces'
    : `its namespaces are ${tenant.namespaces.join(', ')}`;
}

function samePatterns(tenants: readonly Tenant[]): LoadError[] {
  const seen = new Map<string, Tenant>();
  const errors: LoadError[] = [];
  for (const tenant of tenants) {
    for (const pattern of tenant.paths) {
      const clean = pattern.replace(/^(\.\/|\/)+/, '').replace(/\/+$/, '');
      const first = seen.get(clean);
      if (first === undefined) seen.set(clean, tenant);
      else if (first !== tenant) {
        const message = `Tenant/${tenant.name}: spec.paths: "${pattern}" is claimed by Tenant/${first.name} too (rule paths)`;
        errors.push({ code: 'InvalidTenant', ...tenant.source, message });
      }
    }
  }
  return errors;
}
