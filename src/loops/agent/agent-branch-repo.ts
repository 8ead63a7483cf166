// Where the agent reads its cluster branch (docs/git-budget.md#render-repositories). The branch
// cannot say where it lives, so the agent learns it from the fleet repository:
//
// | the agent is given            | it reads its branch from                                          |
// |-------------------------------|-------------------------------------------------------------------|
// | `--render-repo URL|PATH`      | that repository, always (a bindings record naming another is warned of, once) |
// | nothing                       | the repository the bindings branch names for it (`.gitfleet/render-repositories/<cluster>`), else the fleet repository |
//
// The agent starts on the fleet repository exactly as before render repositories (one mirror,
// no new request): reading the record costs nothing, its mirror holds the bindings branch. Once
// the record names a render repository the agent follows it: the branch there, and a second
// mirror of the fleet repository holding the bindings branch, its status and heartbeat (no
// cluster branch). When the record changes again (the hub moved the branch) it follows again.
//
// The hub publishes a moved branch in its new repository first, then the tombstone in the old
// one, then the record (render-repositories.ts). An agent that reads the old repository's
// tombstone before the record stops applying and deletes nothing, and until the record moves
// its branch poll also asks for the bindings branch, so it finds the new place at once.
import { parseCommit } from '../../adapters/git/parse-commit.js';
import { readGitObject } from '../../adapters/git/read-git-object.js';
import { readRef } from '../../adapters/git/read-ref.js';
import { InternalError } from '../../core/model/gitfleet-error.js';
import { clusterRef } from '../../core/publish/hub-refs.js';
import { movedToTrailer } from '../../core/publish/render-move.js';
import { parseTrailers } from '../../core/publish/commit-trailers.js';
import type { Logger } from '../runtime/logger.js';
import type { AgentRepo } from './agent-repo.js';
import { readRenderLocation } from './read-render-location.js';

/** How the agent opens the repositories its branch may live in. */
export interface BranchRepoSources {
  /** The fleet repository as read without render repositories: cluster branch, status, heartbeat, bindings. */
  fleet: AgentRepo & { probeSource?: () => Promise<string | null> };
  /** The fleet repository for a branch that lives elsewhere (bindings, status, heartbeat); made once. */
  fleetWithoutBranch: () => AgentRepo;
  /** Opens a render repository by URL or path; the same object for the same one. */
  render: (url: string) => Promise<AgentRepo & { probeSource?: () => Promise<string | null> }>;
  /** `--render-repo`: read there, whatever the bindings branch says. */
  override?: string;
  /**
   * The error of a refresh that finds the branch neither in the fleet repository nor recorded
   * elsewhere (a remote fleet repository's agent has always taken that as an outage); absent: no branch yet.
   */
  missing?: () => Error;
}

/** The agent's repository whose cluster branch follows the hub's record. */
export interface AgentBranchRepo extends AgentRepo {
  /** The fleet repository of the moment: bindings, and status without a status repository. */
  fleetRepo(): AgentRepo;
  /** The render repository the branch is read from now; undefined: the fleet repository. */
  location(): string | undefined;
  /** Where the branch points on its host now (remote repositories only). */
  probeSource?: () => Promise<string | null>;
  /** Every repository opened so far (their mirrors are maintained). */
  opened(): AgentRepo[];
}

type Probing = AgentRepo & { probeSource?: () => Promise<string | null> };

/** Returns the agent's repository, reading its branch where it lives. */
export async function agentBranchRepo(
  sources: BranchRepoSources,
  opts: { branchPrefix: string; cluster: string; log: Logger },
): Promise<AgentBranchRepo> {
  const ref = clusterRef(opts.branchPrefix, opts.cluster);
  const opened = new Set<AgentRepo>([sources.fleet]);
  let url: string | undefined;
  let branch: Probing = sources.fleet;
  let home: Probing = sources.fleet;
  let warned: string | undefined;
  let awaiting = false;
  const settle = async (next: string | undefined): Promise<void> => {
    const repo = next === undefined ? sources.fleet : await sources.render(next);
    const fleetHome = next === undefined ? sources.fleet : sources.fleetWithoutBranch();
    [url, branch, home] = [next, repo, fleetHome];
    opened.add(repo).add(fleetHome);
  };
  if (sources.override !== undefined) await settle(sources.override);
  const follow = async (named: string | undefined): Promise<void> => {
    if (sources.override !== undefined) {
      if (named !== sources.override && named !== warned)
        opts.log.warn(
          `${ref}: the hub publishes it in ${named ?? 'the fleet repository'}, --render-repo says ${sources.override}; reading ${sources.override}`,
        );
      warned = named;
      return;
    }
    if (named === url) return;
    opts.log.info(
      `${ref}: the hub publishes it in ${named ?? 'the fleet repository'} now, not ${url ?? 'the fleet repository'}; reading it there`,
    );
    await settle(named);
    await branch.refresh();
    if (home !== branch) await home.refresh();
  };
  const refresh = async (): Promise<void> => {
    // The branch first: its head decides which source branch the fleet mirror fetches for an allowance.
    if (branch !== home) await branch.refresh();
    await home.refresh();
    await follow(await readRenderLocation({ gitdir: home.gitdir, ...opts }));
    awaiting = url !== undefined && (await movedAway(branch.gitdir, ref));
    if (url === undefined && sources.missing && (await readRef(branch.gitdir, ref)) === null)
      throw sources.missing();
  };
  const probing: Probing = sources.override === undefined ? sources.fleet : branch;
  const probeSource = async (): Promise<string | null> => {
    const at = (await branch.probeSource?.()) ?? null;
    // A tombstone that says the branch moved: the bindings branch says where to, so it is asked too.
    if (!awaiting) return at;
    return `${at} ${(await home.probeSource?.()) ?? null}`;
  };
  return {
    get gitdir() {
      return branch.gitdir;
    },
    get description() {
      return url ?? sources.fleet.description;
    },
    refresh,
    publish: (moves) => {
      if (branch === home) return home.publish(moves);
      throw new InternalError(`${ref}: the render repository is read, never written, by the agent`);
    },
    ...(probing.probeSource ? { probeSource } : {}),
    fleetRepo: () => home,
    location: () => url,
    opened: () => [...opened],
  };
}

/** Whether the branch's head is the tombstone the hub leaves where a branch moved away. */
async function movedAway(gitdir: string, ref: string): Promise<boolean> {
  const head = await readRef(gitdir, ref);
  if (head === null) return false;
  try {
    const object = await readGitObject({ gitdir }, head);
    return object.type === 'commit' && parseTrailers(parseCommit(object.content).message).has(movedToTrailer);
  } catch {
    return false;
  }
}
