// The refs gitfleet reads and writes (docs/architecture.md#branches-and-commits), named once for
// the hub, the agent and the commands that read them. Every ref gitfleet writes is a branch under
// the FleetConfig's prefix (default `gitfleet/`):
//
//   refs/heads/<prefix>clusters/<cluster>   the rendered manifests of one member cluster (hub)
//   refs/heads/<prefix>bindings             one ResourceBinding record per template (hub)
//   refs/heads/<prefix>status/<cluster>     what the cluster's agent applied and saw (agent)
//   refs/heads/<prefix>heartbeat/<cluster>  one parentless commit, replaced at every renewal (agent)
//   refs/heads/<prefix>notifications        the last event each notification receiver got (hub)

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

/** Returns the ref of a cluster's status branch, the only ref its agent writes. */
export function statusRef(prefix: string, cluster: string): string {
  return `${statusRefPrefix(prefix)}${cluster}`;
}

/** Returns the prefix shared by every status branch ref. */
export function statusRefPrefix(prefix: string): string {
  return `refs/heads/${prefix}status/`;
}

/** Returns the ref of a cluster's heartbeat, which its agent replaces at every renewal (docs/failover.md). */
export function heartbeatRef(prefix: string, cluster: string): string {
  return `${heartbeatRefPrefix(prefix)}${cluster}`;
}

/** Returns the prefix shared by every heartbeat ref. */
export function heartbeatRefPrefix(prefix: string): string {
  return `refs/heads/${prefix}heartbeat/`;
}

/** Returns the ref of the notifications branch: what the hub's notifier delivered (docs/notifications.md#what-was-sent). */
export function notificationsRef(prefix: string): string {
  return `refs/heads/${prefix}notifications`;
}
