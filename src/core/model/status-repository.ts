// Status repositories (docs/git-budget.md#status-repositories): where agents write their status
// branches and heartbeats when the fleet repository should not carry that machine traffic. The
// FleetConfig lists them; assign-status-repository.ts decides which one each cluster uses.

/** One status repository of the FleetConfig's `spec.statusRepositories`. */
export interface StatusRepository {
  /** A DNS label, unique in the list; what the cluster label names. */
  name: string;
  /** An http(s) URL or a local path. */
  url: string;
}

/** The Cluster label that pins a cluster to one status repository by name. */
export const statusRepositoryLabel = 'gitfleet.io/status-repository';

/** The cluster branch file that tells the agent its status repository's URL (absent: the fleet repository). */
export const statusRepositoryPath = '.gitfleet/status-repository';
