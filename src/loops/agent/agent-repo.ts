// The repository an agent works on: a local git directory it reads its cluster branch from and
// writes its status branch into, plus two hooks for repositories that live elsewhere (the same
// shape as the hub's HubRepo). For a local repository both hooks do nothing; for a remote one,
// `refresh` fetches the branches the agent reads (agentMirrorRefs) into a local mirror and
// throws when the remote cannot be reached, and `publish` pushes the status branch back.
import { bindingsRef, heartbeatRef, statusRef } from '../../core/publish/hub-refs.js';
import { localHubRepo, type HubRepo } from '../../adapters/remote/hub-repo.js';
import type { RefMove } from '../../core/model/ref-move.js';

export type { RefMove };

/**
 * A repository the agent reads its cluster branch from and writes its status branch to: the
 * same shape as the hub's, and a local path gives the same in-place repository.
 */
export type AgentRepo = HubRepo;

/** Returns the agent repository of a local path (bare or not): refresh and publish do nothing. */
export const localAgentRepo: (path: string) => AgentRepo = localHubRepo;

// The agent reads its cluster branch and writes its status branch; the names are the hub's.
export { clusterRef as clusterBranchRef, statusRef as statusBranchRef } from '../../core/publish/hub-refs.js';

/**
 * Returns the branches an agent's mirror holds besides its cluster branch: what a pass reads
 * from the repository. Its status branch (the pass commits on its head and compares trees;
 * a push needs the head's objects to prove a fast-forward), its heartbeat (the next commit's
 * counter), and the bindings branch (the deletion allowance walks its commits). Namespace
 * contents come from the cluster, not from git; the source commit an allowance names is
 * fetched with its branch only while the head allows deletions (adapters/remote/allowance-source-ref.ts).
 */
export function agentMirrorRefs(branchPrefix: string, cluster: string): string[] {
  return [statusRef(branchPrefix, cluster), heartbeatRef(branchPrefix, cluster), bindingsRef(branchPrefix)];
}
