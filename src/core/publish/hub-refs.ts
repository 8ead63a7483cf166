// The refs a hub reads and writes (docs/architecture.md#branches-and-commits). Every ref gitfleet
// writes is a branch under the FleetConfig's prefix (default `gitfleet/`):
//
//   refs/heads/<prefix>clusters/<cluster>   the rendered manifests of one member cluster
//   refs/heads/<prefix>bindings             one ResourceBinding record per template

/** The full name of the source branch: `main` → `refs/heads/main`; full names stay as they are. */
export function fullSourceRef(ref: string): string {
  return ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
}

/** Returns the ref of a cluster's branch. */
export function clusterRef(prefix: string, cluster: string): string {
  return `${clusterRefPrefix(prefix)}${cluster}`;
}

/** Returns the prefix shared by every cluster branch ref. */
export function clusterRefPrefix(prefix: string): string {
  return `refs/heads/${prefix}clusters/`;
}

/** Returns the ref of the bindings branch. */
export function bindingsRef(prefix: string): string {
  return `refs/heads/${prefix}bindings`;
}
