// Render repositories (docs/git-budget.md#render-repositories): where the hub writes cluster
// branches (`<prefix>clusters/<cluster>`) when the fleet repository should not hold them, and
// where agents read them. The FleetConfig lists them; assign-render-repository.ts decides which
// one each cluster's branch lives in.
import type { NamedRepository } from './named-repository.js';

/** One render repository of the FleetConfig's `spec.renderRepositories`. */
export type RenderRepository = NamedRepository;

/** The Cluster label that pins a cluster's branch to one render repository by name. */
export const renderRepositoryLabel = 'gitfleet.io/render-repository';

/**
 * The directory of the bindings branch (in the fleet repository) holding one file per cluster
 * whose branch the hub published in a render repository: `<dir><cluster>`, the repository's URL
 * and a newline. It is where the hub last published each branch, and how an agent without
 * `--render-repo` learns where to read its own (absent: the fleet repository).
 */
export const renderLocationDir = '.gitfleet/render-repositories/';

/** Returns the bindings branch path that records where a cluster's branch is published. */
export function renderLocationPath(cluster: string): string {
  return `${renderLocationDir}${cluster}`;
}
