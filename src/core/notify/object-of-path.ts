// The object a cluster-branch path names, as events name it: the status commits' failure lines
// and the hub's Gitfleet-Eviction trailers give paths (`shop/Deployment.apps/web`), events give
// `Kind/namespace/name` and the namespace routes filter on.
/**
 * Returns `Kind/namespace/name` (or `Kind/name`) and the namespace of a cluster-branch path
 * without `.yaml` (`shop/Deployment.apps/web`, `_cluster/Namespace/shop`); a name in another
 * form (a prune message's) is kept as it is.
 */
export function objectOfPath(path: string): { object: string; namespace?: string } {
  const parts = path.split('/');
  if (parts.length !== 3 || !/^[A-Z]/.test(parts[1]!)) return { object: path };
  const [space, kindDir, name] = parts as [string, string, string];
  const kind = kindDir.split('.')[0]!;
  if (space === '_cluster') return { object: `${kind}/${name}` };
  return { object: `${kind}/${space}/${name}`, namespace: space };
}
