// The repository an agent works on: a local git directory it reads its cluster branch from and
// writes its status branch into, plus two hooks for repositories that live elsewhere (the same
// shape as the hub's HubRepo). For a local repository both hooks do nothing; for a remote one,
// `refresh` fetches the cluster branch and the status branch into a local mirror and throws
// when the remote cannot be reached, and `publish` pushes the status branch back.
import { localGitdir, type RefMove } from '../hub/hub-repo.js';

export type { RefMove };

/** A repository the agent reads its cluster branch from and writes its status branch to. */
export interface AgentRepo {
  /** The git directory read and written by the agent. */
  readonly gitdir: string;
  /** What the repository is, for messages (a path or a URL without credentials). */
  readonly description: string;
  /** Brings `gitdir` up to date; throws when the repository cannot be reached. */
  refresh(): Promise<void>;
  /** Makes ref moves already applied to `gitdir` visible where the repository lives. */
  publish(moves: readonly RefMove[]): Promise<void>;
}

/** Returns the agent repository of a local path (bare or not): refresh and publish do nothing. */
export function localAgentRepo(path: string): AgentRepo {
  const gitdir = localGitdir(path);
  return {
    gitdir,
    description: path,
    refresh: () => Promise.resolve(),
    publish: () => Promise.resolve(),
  };
}

/** Returns the ref of a cluster's rendered branch, which the agent reads. */
export function clusterBranchRef(prefix: string, cluster: string): string {
  return `refs/heads/${prefix}clusters/${cluster}`;
}

/** Returns the ref of a cluster's status branch, the only ref the agent writes. */
export function statusBranchRef(prefix: string, cluster: string): string {
  return `refs/heads/${prefix}status/${cluster}`;
}
