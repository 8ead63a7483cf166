import { readGitSource } from '../adapters/source/read-git-commit.js';
import { loadFleet } from '../core/load/load-fleet.js';
import { defaultBranchPrefix } from '../core/model/fleet-config.js';

/**
 * Returns the branch prefix the FleetConfig at the repository's HEAD sets, for the commands that
 * read the hub's branches (log, status) without --branch-prefix; the default when HEAD has none,
 * does not load, or is unborn (a repository holding only gitfleet's branches).
 */
export async function fleetBranchPrefix(dir: string): Promise<string> {
  try {
    const loaded = loadFleet((await readGitSource({ dir, ref: 'HEAD' })).files);
    if (loaded.ok) return loaded.fleet.config.branchPrefix;
  } catch {
    // No FleetConfig to read: the default.
  }
  return defaultBranchPrefix;
}
