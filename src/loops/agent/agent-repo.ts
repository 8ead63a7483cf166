// The repository an agent works on: a local git directory it reads its cluster branch from and
// writes its status branch into, plus two hooks for repositories that live elsewhere (the same
// shape as the hub's HubRepo). For a local repository both hooks do nothing; for a remote one,
// `refresh` fetches the cluster branch and the status branch into a local mirror and throws
// when the remote cannot be reached, and `publish` pushes the status branch back.
import { localHubRepo, type HubRepo, type RefMove } from '../shared/hub-repo.js';

export type { RefMove };

/**
 * A repository the agent reads its cluster branch from and writes its status branch to: the
 * same shape as the hub's, and a local path gives the same in-place repository.
 */
export type AgentRepo = HubRepo;

/** Returns the agent repository of a local path (bare or not): refresh and publish do nothing. */
export const localAgentRepo: (path: string) => AgentRepo = localHubRepo;

/** Returns the ref of a cluster's rendered branch, which the agent reads. */
export function clusterBranchRef(prefix: string, cluster: string): string {
  return `refs/heads/${prefix}clusters/${cluster}`;
}

/** Returns the ref of a cluster's status branch, the only ref the agent writes. */
export function statusBranchRef(prefix: string, cluster: string): string {
  return `refs/heads/${prefix}status/${cluster}`;
}
