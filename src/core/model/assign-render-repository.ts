// Which render repository holds a cluster's branch: assign-repository.ts's rule with the label
// gitfleet.io/render-repository over the FleetConfig's `spec.renderRepositories`.
import { assignRepository, type RepositoryAssignment } from './assign-repository.js';
import type { Cluster } from './cluster.js';
import type { FleetConfig } from './fleet-config.js';
import { renderRepositoryLabel, type RenderRepository } from './render-repository.js';

/** Returns the render repository of a cluster's branch under the FleetConfig's list. */
export function assignRenderRepository(
  cluster: Pick<Cluster, 'name' | 'labels'>,
  repositories: readonly RenderRepository[] | undefined,
): RepositoryAssignment {
  return assignRepository(cluster, repositories, { label: renderRepositoryLabel, kind: 'render' });
}

/** Returns cluster → the URL of its render repository, for every cluster assigned one (errors left out: the load refuses them). */
export function renderUrls(
  clusters: readonly Pick<Cluster, 'name' | 'labels'>[],
  config: Pick<FleetConfig, 'renderRepositories'>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const cluster of clusters) {
    const assigned = assignRenderRepository(cluster, config.renderRepositories);
    if (assigned.type === 'repository') out.set(cluster.name, assigned.repository.url);
  }
  return out;
}
