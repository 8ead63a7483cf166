// A repository the FleetConfig lists by name, for status (status-repository.ts) or for cluster
// branches (render-repository.ts): the same shape, the same rules (read-repository-list.ts), and
// the same assignment of clusters to them (assign-repository.ts).

/** One entry of the FleetConfig's `spec.statusRepositories` or `spec.renderRepositories`. */
export interface NamedRepository {
  /** A DNS label, unique in the list; what the cluster label names. */
  name: string;
  /** An http(s) URL or a local path. */
  url: string;
}
