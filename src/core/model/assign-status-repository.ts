// Which status repository a cluster's agent writes to: assign-repository.ts's rule with the label
// gitfleet.io/status-repository over the FleetConfig's `spec.statusRepositories`.
import { assignRepository, type RepositoryAssignment } from './assign-repository.js';
import type { Cluster } from './cluster.js';
import type { FleetConfig } from './fleet-config.js';
import { statusRepositoryLabel, type StatusRepository } from './status-repository.js';

export { assignedUrl } from './assign-repository.js';

/** Where one cluster's status goes: the fleet repository, a listed repository, or a bad label. */
export type StatusAssignment = RepositoryAssignment;

/** Returns the status repository of a cluster under the FleetConfig's list. */
export function assignStatusRepository(
  cluster: Pick<Cluster, 'name' | 'labels'>,
  repositories: readonly StatusRepository[] | undefined,
): StatusAssignment {
  return assignRepository(cluster, repositories, { label: statusRepositoryLabel, kind: 'status' });
}

/** Returns every cluster's assignment, by cluster name. */
export function assignStatusRepositories(
  clusters: readonly Pick<Cluster, 'name' | 'labels'>[],
  config: Pick<FleetConfig, 'statusRepositories'>,
): Map<string, StatusAssignment> {
  const out = new Map<string, StatusAssignment>();
  for (const cluster of clusters)
    out.set(cluster.name, assignStatusRepository(cluster, config.statusRepositories));
  return out;
}
