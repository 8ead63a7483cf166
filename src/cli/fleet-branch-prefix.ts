import { readGitSource } from '../adapters/source/read-git-commit.js';
import { readFleetConfig } from '../core/load/load-fleet.js';
import { defaultBranchPrefix } from '../core/model/fleet-config.js';

/**
 * Returns the branch prefix the FleetConfig at the repository's HEAD sets, for the commands that
 * read the hub's branches (log, ui) without --branch-prefix: only the FleetConfig is parsed, so
 * a fleet that does not load still names its prefix; the default when HEAD has no FleetConfig,
 * an invalid one, or is unborn (a repository holding only gitfleet's branches).
 */
export async function fleetBranchPrefix(dir: string): Promise<string> {
  try {
    return readFleetConfig((await readGitSource({ dir, ref: 'HEAD' })).files).branchPrefix;
  } catch {
    // No FleetConfig to read: the default.
  }
  return defaultBranchPrefix;
}
