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
// the record names a render repository the agent follows it: the branch there, and the fleet
// repository for the bindings branch, its status and heartbeat (`fleetWithoutBranch`: the same
// mirror for a remote one, so learning the place costs no second read of it unless the head
// found there needs the bindings branch). When the record changes again (the hub moved the
// branch) it follows again.
//
// The hub publishes a moved branch in its new repository first, then the tombstone in the old
// one, then the record (render-repositories.ts). An agent that reads the old repository's
// tombstone before the record stops applying and deletes nothing, and until the record moves
// its branch poll also asks for the bindings branch, so it finds the new place at once.
//
// The fleet repository is read at a refresh only when the bindings branch may matter: a refresh
// that moved the branch in a render repository to a head that allows no deletion here and is no
// tombstone reads the render repository alone. So a source push that moves every branch costs
// each render repository its readers' fetches, and the fleet repository none: its bindings
// branch is read at the next refresh that finds the branch unchanged (the resync without the
// doorbell, a pass waiting for the hub's answer, one after a failure). The branch poll opens no
// such refresh for a head the mirror holds already (branch-poll.ts `held`): with the doorbell,
// every agent's first safety poll after a push did, an ls-refs and a fetch of the fleet
// repository each.
import { readCommit } from '../../adapters/git/read-typed-object.js';
import { readRef } from '../../adapters/git/read-ref.js';
import { InternalError } from '../../core/model/gitfleet-error.js';
import { clusterRef } from '../../core/publish/hub-refs.js';
import { movedToTrailer } from '../../core/publish/render-move.js';
import { deletionsAllowedBy, parseTrailers } from '../../core/publish/commit-trailers.js';
import type { Logger } from '../runtime/logger.js';
import type { AgentRepo } from './agent-repo.js';
import { readRenderLocation } from './read-render-location.js';

/** How the agent opens the repositories its branch may live in. */
export interface BranchRepoSources {
  /** The fleet repository as read without render repositories: cluster branch, status, heartbeat, bindings. */
  fleet: AgentRepo & { probeSource?: () => Promise<string | null> };
  /**
   * The fleet repository for a branch that lives elsewhere (bindings, status, heartbeat), its
   * probe asking for the bindings branch; made once. The same git directory as `fleet` saves
   * the start a second read of it.
   */
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
  const place = new BranchPlace(sources, opts);
  if (sources.override !== undefined) await place.settle(sources.override);
  return repoOf(place);
}

/** The repository object over where the branch lives now. */
function repoOf(place: BranchPlace): AgentBranchRepo {
  const { sources, ref } = place;
  const probing: Probing = sources.override === undefined ? sources.fleet : place.branch;
  return {
    get gitdir() {
      return place.branch.gitdir;
    },
    get description() {
      return place.url ?? sources.fleet.description;
    },
    refresh: () => place.refresh(),
    publish: (moves) => {
      if (place.branch === place.home) return place.home.publish(moves);
      throw new InternalError(`${ref}: the render repository is read, never written, by the agent`);
    },
    ...(probing.probeSource ? { probeSource: () => place.probeSource() } : {}),
    fleetRepo: () => place.home,
    location: () => place.url,
    opened: () => [...place.opened],
  };
}

/** Where the cluster branch lives now, and what the agent has read of the fleet repository since. */
class BranchPlace {
  readonly ref: string;
  readonly opened: Set<AgentRepo>;
  url: string | undefined;
  branch: Probing;
  home: Probing;
  private warned: string | undefined;
  private awaiting = false;
  // Whether the fleet repository was read since the agent settled where its branch lives.
  private homeRead = false;

  constructor(
    readonly sources: BranchRepoSources,
    private readonly opts: { branchPrefix: string; cluster: string; log: Logger },
  ) {
    this.ref = clusterRef(opts.branchPrefix, opts.cluster);
    this.opened = new Set<AgentRepo>([sources.fleet]);
    this.branch = sources.fleet;
    this.home = sources.fleet;
  }

  /** Reads the branch from `next` (undefined: the fleet repository) from now on. */
  async settle(next: string | undefined): Promise<void> {
    const repo = next === undefined ? this.sources.fleet : await this.sources.render(next);
    const fleetHome = next === undefined ? this.sources.fleet : this.sources.fleetWithoutBranch();
    [this.url, this.branch, this.home] = [next, repo, fleetHome];
    this.homeRead = false;
    this.opened.add(repo).add(fleetHome);
  }

  /** Refreshes the branch, and the fleet repository when the bindings branch may matter. */
  async refresh(): Promise<void> {
    const { branch, ref, opts } = this;
    // The branch first: its head decides which source branch the fleet mirror fetches for an allowance.
    if (branch !== this.home) {
      const before = await readRef(branch.gitdir, ref);
      await branch.refresh();
      // A moved branch whose head needs nothing of the bindings branch costs the fleet repository no read.
      if (this.homeRead && !this.awaiting && !(await needsBindings(branch.gitdir, ref, before, opts.cluster)))
        return;
    }
    await this.home.refresh();
    this.homeRead = true;
    await this.follow(await readRenderLocation({ gitdir: this.home.gitdir, ...opts }));
    this.awaiting = this.url !== undefined && (await movedAway(this.branch.gitdir, ref));
    if (this.url === undefined && this.sources.missing && (await readRef(this.branch.gitdir, ref)) === null)
      throw this.sources.missing();
  }

  /** Where the branch points on its host, and the bindings branch too while the branch is a tombstone. */
  async probeSource(): Promise<string | null> {
    const at = (await this.branch.probeSource?.()) ?? null;
    // A tombstone that says the branch moved: the bindings branch says where to, so it is asked too.
    if (!this.awaiting) return at;
    return `${at} ${(await this.home.probeSource?.()) ?? null}`;
  }

  /** Follows the repository the bindings branch names, unless `--render-repo` says otherwise. */
  private async follow(named: string | undefined): Promise<void> {
    if (this.sources.override !== undefined) return this.warnOverride(named, this.sources.override);
    if (named === this.url) return;
    this.opts.log.info(
      `${this.ref}: the hub publishes it in ${named ?? 'the fleet repository'} now, not ${this.url ?? 'the fleet repository'}; reading it there`,
    );
    const read = this.home.gitdir; // the fleet repository's mirror this refresh has just read
    await this.settle(named);
    if (this.branch.gitdir !== read) await this.branch.refresh();
    // The fleet mirror that told where the branch lives is the home there too (agent-render-repo.ts):
    // a start costs the fleet repository one read of it, unless the branch's head needs the
    // bindings branch (an allowance's source branch, a tombstone's new place).
    const again =
      this.home.gitdir !== read || (await headNeedsBindings(this.branch.gitdir, this.ref, this.opts.cluster));
    if (this.home !== this.branch && again) await this.home.refresh();
    // The bindings branch was just read: the next moved branch needs no read of it (an agent
    // with the doorbell makes no refresh in between that would say so).
    this.homeRead = true;
  }

  /** Warns, once per record, of a record naming another repository than `--render-repo`. */
  private warnOverride(named: string | undefined, override: string): void {
    if (named !== override && named !== this.warned)
      this.opts.log.warn(
        `${this.ref}: the hub publishes it in ${named ?? 'the fleet repository'}, --render-repo says ${override}; reading ${override}`,
      );
    this.warned = named;
  }
}

/**
 * Whether a refresh of the render repository must read the bindings branch too: unless the
 * branch moved to a head that neither allows deletions here (the allowance is proven from the
 * bindings branch) nor is a tombstone (the bindings branch says where the branch went), it
 * must; a refresh that found the branch where it was is the safety poll's or the resync's, and
 * reads the fleet repository as it always did.
 */
async function needsBindings(
  gitdir: string,
  ref: string,
  before: string | null,
  cluster: string,
): Promise<boolean> {
  const head = await readRef(gitdir, ref);
  return head === null || head === before || headNeedsBindings(gitdir, ref, cluster);
}

/** Whether the branch's head allows deletions here or is a tombstone (no head: nothing to prove). */
async function headNeedsBindings(gitdir: string, ref: string, cluster: string): Promise<boolean> {
  const head = await readRef(gitdir, ref);
  if (head === null) return false;
  try {
    const { message } = await readCommit({ gitdir }, head);
    return deletionsAllowedBy(message)(cluster) || parseTrailers(message).has(movedToTrailer);
  } catch {
    return true;
  }
}

/** Whether the branch's head is the tombstone the hub leaves where a branch moved away. */
async function movedAway(gitdir: string, ref: string): Promise<boolean> {
  const head = await readRef(gitdir, ref);
  if (head === null) return false;
  try {
    return parseTrailers((await readCommit({ gitdir }, head)).message).has(movedToTrailer);
  } catch {
    return false;
  }
}
