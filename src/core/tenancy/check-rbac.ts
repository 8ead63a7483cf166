// RBAC a tenant may never create, whatever its Tenant allows (docs/tenants.md#rbac): what would
// let its subjects give themselves more than the tenant was given.
//
// | object                                   | refused when                                                  |
// |------------------------------------------|---------------------------------------------------------------|
// | ClusterRole, ClusterRoleBinding          | always: they grant rights in every namespace                  |
// | RoleBinding                              | its roleRef is a ClusterRole other than admin, edit or view (cluster-admin above all: it is every right) |
// | Role                                     | a rule grants escalate, bind or impersonate, or every verb (`*`) on RBAC objects (group `*` or rbac.authorization.k8s.io) |
// Kubernetes itself refuses a binding or Role that grants more than its writer holds
// (RBAC escalation prevention); with `impersonate` the member cluster applies that too.
import { isMap, type KubeObject } from '../model/kube-object.js';
import { groupOf } from '../model/object-ref.js';

const rbacGroup = 'rbac.authorization.k8s.io';
/** ClusterRoles a tenant's RoleBinding may refer to: Kubernetes' user-facing namespace roles. */
const bindableClusterRoles: ReadonlySet<string> = new Set(['admin', 'edit', 'view']);
const escalatingVerbs: ReadonlySet<string> = new Set(['escalate', 'bind', 'impersonate']);

/** Returns why an RBAC object would let a tenant escalate, or undefined (not RBAC, or fine). */
export function checkRbacEscalation(object: KubeObject): string | undefined {
  if (groupOf(object.apiVersion) !== rbacGroup) return undefined;
  switch (object.kind) {
    case 'ClusterRole':
    case 'ClusterRoleBinding':
      return `a ${object.kind} grants rights in every namespace: a tenant never creates one`;
    case 'RoleBinding':
      return checkRoleRef(object['roleRef']);
    case 'Role':
      return checkRules(object['rules']);
    default:
      return undefined;
  }
}

function checkRoleRef(roleRef: unknown): string | undefined {
  if (!isMap(roleRef) || roleRef['kind'] !== 'ClusterRole') return undefined;
  const name = String(roleRef['name']);
  if (bindableClusterRoles.has(name)) return undefined;
  return `roleRef ClusterRole/${name}: a tenant binds only Roles of its own and the ClusterRoles admin, edit or view`;
}

function checkRules(rules: unknown): string | undefined {
  if (!Array.isArray(rules)) return undefined;
  for (const [i, rule] of rules.entries()) {
    if (!isMap(rule)) continue;
    const verbs = strings(rule['verbs']);
    const groups = strings(rule['apiGroups']);
    const granted = verbs.find((v) => escalatingVerbs.has(v));
    if (granted)
      return `rules[${i}] grants ${granted}: with it a subject gives itself rights it was not given`;
    if (verbs.includes('*') && (groups.includes('*') || groups.includes(rbacGroup)))
      return `rules[${i}] grants every verb on RBAC objects (escalate and bind among them): list the verbs it needs`;
  }
  return undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
