import type { Tenant } from '../model/tenant.js';
import { compilePathPattern, type PathMatcher } from './path-patterns.js';

/** The tenants of a fleet with their path patterns compiled once. */
export interface TenantIndex {
  readonly tenants: readonly Tenant[];
  /** Returns every tenant whose paths hold the file (a valid fleet has at most one). */
  tenantsOf(file: string): Tenant[];
  /** Returns the tenant that owns the file, if any (the first, in a fleet that does not load). */
  tenantOf(file: string): Tenant | undefined;
}

/** Returns the tenants indexed by their path patterns; a file's answer is computed once. */
export function indexTenants(tenants: readonly Tenant[]): TenantIndex {
  const compiled: { tenant: Tenant; matchers: PathMatcher[] }[] = tenants.map((tenant) => ({
    tenant,
    matchers: tenant.paths.map(compilePathPattern),
  }));
  const known = new Map<string, Tenant[]>();
  const tenantsOf = (file: string): Tenant[] => {
    let found = known.get(file);
    if (found === undefined) {
      found = compiled.filter((c) => c.matchers.some((m) => m(file))).map((c) => c.tenant);
      known.set(file, found);
    }
    return found;
  };
  return { tenants, tenantsOf, tenantOf: (file) => tenantsOf(file)[0] };
}
