// Status repositories (docs/git-budget.md#status-repositories): where agents write their status
// branches and heartbeats when the fleet repository should not carry that machine traffic. The
// FleetConfig lists them; assign-status-repository.ts decides which one each cluster uses.
import type { NamedRepository } from './named-repository.js';

/** One status repository of the FleetConfig's `spec.statusRepositories`. */
export type StatusRepository = NamedRepository;

/** The Cluster label that pins a cluster to one status repository by name. */
export const statusRepositoryLabel = 'gitfleet.io/status-repository';

/** The cluster branch file that tells the agent its status repository's URL (absent: the fleet repository). */
export const statusRepositoryPath = '.gitfleet/status-repository';
