// The object `gitfleet log` follows, as a user types it, and how it maps onto the cluster branch
// layout (docs/architecture.md#cluster-branches: `<namespace>/<Kind>[.<group>]/<name>.yaml`,
// `_cluster/` for cluster-scoped objects):
//
//   Deployment/shop/web          namespaced; any group
//   Deployment.apps/shop/web     namespaced; only that group
//   deployment/shop/web          kinds match case-insensitively
//   Namespace/shop               cluster-scoped (two parts)

/** An object to follow through the cluster branches. */
export interface ObjectSpec {
  kind: string;
  /** The group, when given; absent matches any group (the core group included). */
  group?: string;
  /** '' for cluster-scoped objects. */
  namespace: string;
  name: string;
}

/** Returns the object a `<Kind>[.<group>]/<namespace>/<name>` or `<Kind>[.<group>]/<name>` argument names, or why it names none. */
export function parseObjectSpec(
  text: string,
): { ok: true; spec: ObjectSpec } | { ok: false; message: string } {
  const parts = text.split('/');
  if ((parts.length !== 2 && parts.length !== 3) || parts.some((p) => p === '')) {
    return { ok: false, message: `'${text}': expected <Kind>/<namespace>/<name> or <Kind>/<name>` };
  }
  const [kindPart, ...rest] = parts as [string, ...string[]];
  const dot = kindPart.indexOf('.');
  const kind = dot < 0 ? kindPart : kindPart.slice(0, dot);
  const group = dot < 0 ? undefined : kindPart.slice(dot + 1);
  if (kind === '' || group === '') return { ok: false, message: `'${text}': the kind is empty` };
  const namespace = rest.length === 2 ? rest[0]! : '';
  const name = rest[rest.length - 1]!;
  return { ok: true, spec: { kind, ...(group !== undefined ? { group } : {}), namespace, name } };
}

/** Returns the top-level directory of the object's namespace in a cluster branch. */
export function namespaceDir(spec: ObjectSpec): string {
  return spec.namespace || '_cluster';
}

/** Returns whether a `<Kind>[.<group>]` directory of a cluster branch holds objects of the spec's kind. */
export function isKindDirOf(spec: ObjectSpec, dir: string): boolean {
  const dot = dir.indexOf('.');
  const kind = dot < 0 ? dir : dir.slice(0, dot);
  const group = dot < 0 ? '' : dir.slice(dot + 1);
  if (kind.toLowerCase() !== spec.kind.toLowerCase()) return false;
  return spec.group === undefined || spec.group.toLowerCase() === group.toLowerCase();
}

/** Returns the object's file name inside its kind directory. */
export function objectFileName(spec: ObjectSpec): string {
  return `${spec.name}.yaml`;
}
