// What a tenant's template may be, wherever it goes (docs/tenants.md#rules), checked in order:
//
// | rule          | refused                                                                          |
// |---------------|----------------------------------------------------------------------------------|
// | rbac          | RBAC that escalates (check-rbac.ts), whatever else the Tenant allows              |
// | kinds         | a kind in deniedKinds, or one not in allowedKinds when that is given              |
// | namespaces    | a namespaced object outside the tenant's namespaces; a Namespace not one of them  |
// | clusterScoped | any other cluster-scoped object, unless `clusterScoped: true`                     |
import type { Template } from '../model/fleet.js';
import { groupOf } from '../model/object-ref.js';
import type { GroupKind, Tenant } from '../model/tenant.js';
import { checkRbacEscalation } from './check-rbac.js';
import type { TenantRefusal } from './tenant-refusal.js';

/** Returns why a tenant may not have this template, or undefined. */
export function checkTenantObject(tenant: Tenant, template: Template): TenantRefusal | undefined {
  const refuse = (rule: TenantRefusal['rule'], message: string): TenantRefusal => ({
    tenant: tenant.name,
    rule,
    message,
  });
  const { ref } = template;
  const group = groupOf(ref.apiVersion);
  const escalation = checkRbacEscalation(template.object);
  if (escalation) return refuse('rbac', escalation);
  const kind = `${group ? `${group}/` : ''}${ref.kind}`;
  if (tenant.deniedKinds.some((gk) => matchesKind(gk, group, ref.kind)))
    return refuse('kinds', `${kind} is in its deniedKinds`);
  if (tenant.allowedKinds && !tenant.allowedKinds.some((gk) => matchesKind(gk, group, ref.kind)))
    return refuse('kinds', `${kind} is not in its allowedKinds`);
  if (ref.namespace !== '') {
    if (tenant.namespaces.includes(ref.namespace)) return undefined;
    return refuse(
      'namespaces',
      `namespace ${ref.namespace} is not one of its namespaces (${listed(tenant)})`,
    );
  }
  if (group === '' && ref.kind === 'Namespace') {
    if (tenant.namespaces.includes(ref.name)) return undefined;
    return refuse('namespaces', `Namespace ${ref.name} is not one of its namespaces (${listed(tenant)})`);
  }
  if (!tenant.clusterScoped)
    return refuse('clusterScoped', `${kind} is cluster-scoped and the tenant has clusterScoped: false`);
  return undefined;
}

/** Returns whether a Tenant's `{group, kind}` entry names a kind (`*` matches any). */
export function matchesKind(entry: GroupKind, group: string, kind: string): boolean {
  return (entry.group === '*' || entry.group === group) && (entry.kind === '*' || entry.kind === kind);
}

function listed(tenant: Tenant): string {
  return tenant.namespaces.length === 0 ? 'none' : tenant.namespaces.join(', ');
}
