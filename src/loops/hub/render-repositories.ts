// The render repositories as the hub reads and writes them (docs/git-budget.md#render-repositories).
// The hub keeps one repository (a mirror for a URL, the path itself for a local one) per render
// repository. A pass refreshes those the fleet assigns or recorded a branch in (one read each)
// and lists their cluster branches; the pass writes its commits into the repository it works on,
// as always, and publishes each cluster branch where it lives:
//
//   1. copy the objects the new commits need into the render repository's git directory
//      (copy-objects.ts: what its branches do not reach already);
//   2. a local path: move its refs there by compare-and-swap, fast-forward only (update-ref.ts);
//      a mirror: push (one per render repository per pass, carrying every branch that moved
//      there, by compare-and-swap against the remote's branches: push-refs.ts), and the push
//      moves the mirror's branches and tracking refs once it is taken, in one batch. Moving the
//      mirror's branches before the push as well was a second batch of ref files for each render
//      repository (168 a pass at 1,000 clusters; docs/git-budget.md#measured), and left them
//      ahead of the remote when the push failed.
//
// The hub is the only writer of a render repository's cluster branches, so what a mirror last
// read, with the hub's own pushes since, is what the repository holds. With `trustMs` (the hub's
// --interval) a mirror read within it is not read again: a source push's pass at 1,000 clusters
// spared 84 reads (and their round trips) before it could render. A mirror is read again once the
// period is over, and at the next pass after anything casts doubt on it: a push refused or lost to
// another writer, a read that failed. Every push goes by compare-and-swap against that view, so
// a repository changed behind the hub's back costs a refused push and a read, never a wrong update.
//
// A move that loses a race (RefConflict, RefLocked, PushRejected) throws as it is: the pass
// reads again and runs again. Any other failure (the repository does not exist, refuses the
// write, is rate limited or unreachable) throws RenderUnavailableError naming the repository:
// the pass runs again with that repository's clusters held (their branches and records stay as
// they were) and the other repositories published.
import { listRefs } from '../../adapters/git/list-refs.js';
import { updateRefs } from '../../adapters/git/update-ref.js';
import { copyObjects } from '../../adapters/remote/copy-objects.js';
import { GitfleetError } from '../../core/model/gitfleet-error.js';
import { clusterRefPrefix } from '../../core/publish/hub-refs.js';
import type { Logger } from '../runtime/logger.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import type { RefMove } from '../../core/model/ref-move.js';
import type { GitObject } from '../../adapters/git/git-object.js';
import type { ClusterPassOutcome } from './hub-pass-result.js';
import { notRefreshedAhead, startRefreshAhead, type RefreshAhead } from './refresh-ahead.js';
import { isLostRace } from './lost-race.js';

/**
 * Render repositories could not be written (URL → why): their clusters are held when the pass
 * runs again. `outcomes` are what the attempt did to each cluster, so the pass can say which
 * branches it did publish.
 */
export class RenderUnavailableError extends GitfleetError<'RenderUnavailable'> {
  constructor(
    readonly refused: ReadonlyMap<string, string>,
    readonly outcomes: Readonly<Record<string, ClusterPassOutcome>> = {},
  ) {
    super([...refused.values()].join('; '), { code: 'RenderUnavailable' });
  }
}

interface Known {
  repo?: HubRepo;
  /** Why it cannot be read now (its last refresh failed). */
  problem?: string;
  /** Cluster → branch head, as of the last refresh or publish. */
  heads: Map<string, string>;
  /** Why its last publish failed, until one succeeds (logged when it starts or changes). */
  refused?: string;
  /** When its last read succeeded (the clock's milliseconds) and the branch prefix it listed. */
  read?: { at: number; prefix: string };
  /** A push lost a race there: what the mirror holds is read again before it is used. */
  doubted?: boolean;
}

/** The hub's render repositories: refreshed together, written per repository. */
export class RenderRepositories {
  private readonly known = new Map<string, Known>();
  /** Cluster → the URL its branch lives in (absent: the fleet repository), as the last pass left it. */
  private located = new Map<string, string>();
  private listed = false;
  private assigned = false;
  /** URL → the branches located there, counted when first asked after a change. */
  private counted: Map<string, number> | undefined;
  /** What the last refresh read: the next pass refreshes them ahead (refresh-ahead.ts). */
  private lastRead: { urls: string[]; prefix: string } | undefined;

  constructor(
    private readonly opts: {
      /** Returns the repository of a URL or path (throws when a path is no repository). */
      open: (url: string) => HubRepo;
      log: Logger;
      /**
       * How long a mirror's read is trusted, in milliseconds, with the hub's own pushes since
       * (default 0: every pass reads every render repository). A local path is read every pass:
       * listing its refs costs no request.
       */
      trustMs?: number;
      /** The clock of `trustMs`, in milliseconds (default Date.now). */
      now?: () => number;
    },
  ) {}

  /** Told after each publish to a render repository succeeded (the doorbell looks then). */
  private published: (() => Promise<void>) | undefined;

  /** Sets what is told after each publish to a render repository succeeded. */
  onPublished(listener: () => Promise<void>): void {
    this.published = listener;
  }

  /**
   * Takes what a pass found: whether the fleet lists render repositories, and where each
   * cluster's branch lives once its writes are out (the bindings branch records the same).
   */
  settle(listed: boolean, located: ReadonlyMap<string, string>): void {
    this.assigned = true;
    this.listed = listed;
    this.located = new Map(located);
    this.counted = undefined;
  }

  /**
   * Whether every cluster branch is in the fleet repository: a pass has loaded the fleet and it
   * lists no render repository and records no branch in one. Before the first pass (a process
   * just started) it is not known, so a pass must load the fleet to find out.
   */
  fleetOnly(): boolean {
    return this.assigned && !this.listed && this.located.size === 0;
  }

  /**
   * Refreshes each repository (but those `ahead` refreshed: refresh-ahead.ts) and lists its
   * cluster branches; one that fails is remembered as unreadable, logged once.
   */
  async refresh(urls: Iterable<string>, branchPrefix: string, ahead?: RefreshAhead): Promise<void> {
    const wanted = [...new Set(urls)];
    this.lastRead = { urls: wanted, prefix: branchPrefix };
    const rest = await notRefreshedAhead(wanted, branchPrefix, ahead);
    await Promise.all(rest.map((url) => this.refreshOne(url, branchPrefix)));
  }

  /**
   * Starts refreshing the repositories the last refresh read, but those that refused a write in
   * this pass, ahead of a pass that has not loaded the fleet yet; undefined before the first.
   */
  refreshAhead(unwritable: ReadonlyMap<string, string>): RefreshAhead | undefined {
    const last = this.lastRead;
    if (!last) return undefined;
    const urls = last.urls.filter((url) => !unwritable.has(url));
    return startRefreshAhead(urls, last.prefix, (url) => this.refreshOne(url, last.prefix));
  }

  /** Returns a repository's cluster branches, or undefined when it cannot be read now. */
  heads(url: string): ReadonlyMap<string, string> | undefined {
    const known = this.known.get(url);
    return known?.problem === undefined && known?.repo ? known.heads : undefined;
  }

  /** Returns why a repository cannot be read now, if it cannot. */
  problem(url: string): string | undefined {
    return this.known.get(url)?.problem;
  }

  /** Returns the git directories of the repositories read so far (where the pass also looks for objects). */
  gitdirs(): string[] {
    return [...this.known.values()].flatMap((k) => (k.repo ? [k.repo.gitdir] : []));
  }

  /** Returns each cluster branch's head where it lives, over the fleet repository's own (the doorbell, the monitor). */
  overlay(fleetHeads: ReadonlyMap<string, string>): Map<string, string> {
    const heads = new Map(fleetHeads);
    for (const [cluster, url] of this.located) {
      const head = this.known.get(url)?.heads.get(cluster);
      if (head === undefined) heads.delete(cluster);
      else heads.set(cluster, head);
    }
    return heads;
  }

  /** Returns the render repository a cluster branch lives in (undefined: the fleet repository), and how many branches live there. */
  branchRepositoryOf(cluster: string): { url: string; branches: number } | undefined {
    const url = this.located.get(cluster);
    if (url === undefined) return undefined;
    this.counted ??= countBy(this.located.values());
    return { url, branches: this.counted.get(url) ?? 1 };
  }

  /** Returns the git directory of a render repository the hub has read (its mirror, for a URL), or undefined. */
  gitdirOfRepository(url: string): string | undefined {
    return this.known.get(url)?.repo?.gitdir;
  }

  /** Returns the git directory that holds a cluster branch's commits, when it lives in a render repository. */
  gitdirOf(cluster: string): string | undefined {
    const url = this.located.get(cluster);
    return url === undefined ? undefined : this.known.get(url)?.repo?.gitdir;
  }

  /**
   * Publishes the moves of one render repository, their commits read from `from` (the
   * repository the pass wrote them into) or from `fresh` (the objects the pass wrote, by id);
   * throws RenderUnavailableError when it cannot.
   */
  async publish(
    url: string,
    moves: readonly RefMove[],
    from: string,
    fresh?: ReadonlyMap<string, GitObject>,
  ): Promise<void> {
    const known = this.known.get(url);
    if (!known?.repo || known.problem !== undefined)
      throw new RenderUnavailableError(
        new Map([[url, known?.problem ?? `render repository ${url} was not read`]]),
      );
    const repo = known.repo;
    try {
      const { walked } = await copyObjects({
        from: [from, ...this.gitdirs().filter((d) => d !== repo.gitdir)],
        to: repo.gitdir,
        tips: moves.map((m) => m.newOid),
        has: new Set(known.heads.values()),
        ...(fresh ? { fresh } : {}),
      });
      // A mirror (it holds only the hub's branches) moves its refs when the push is taken.
      if (repo.branchPrefix === undefined)
        await updateRefs({
          gitdir: repo.gitdir,
          updates: moves.map((m) => ({ ref: m.ref, newOid: m.newOid, expectedOld: m.oldOid })),
        });
      // The copy's walk is the push's: one walk (hub-repo.ts).
      await repo.publish(
        moves.map(({ repository: _, ...move }) => move),
        walked,
      );
    } catch (error) {
      if (isLostRace(error)) {
        known.doubted = true;
        throw error;
      }
      const refused = `render repository ${url} refused the write: ${(error as Error).message}`;
      if (refused !== known.refused)
        this.opts.log.warn(
          `${refused}; its clusters keep their last published state, the others are published`,
        );
      known.refused = refused;
      throw new RenderUnavailableError(new Map([[url, refused]]));
    }
    if (known.refused !== undefined) this.opts.log.info(`render repository ${url} accepts writes again`);
    delete known.refused;
    const prefix = moves[0] ? moves[0].ref.slice(0, moves[0].ref.lastIndexOf('/') + 1) : '';
    for (const m of moves) {
      known.heads.set(m.ref.slice(prefix.length), m.newOid);
      // A branch pushed here lives here from now on (the first pass settles only after its writes).
      if (m.leftBehind !== true) this.located.set(m.ref.slice(prefix.length), url);
    }
    this.counted = undefined;
    await this.published?.().catch((error: unknown) => {
      this.opts.log.warn(`render repository ${url}: after the push: ${(error as Error).message}`);
    });
  }

  /** Whether the repository's last read, with the hub's pushes since, still stands for what it holds. */
  private trusted(known: Known, branchPrefix: string): boolean {
    const trustMs = this.opts.trustMs ?? 0;
    const read = known.read;
    if (trustMs <= 0 || read === undefined || read.prefix !== branchPrefix) return false;
    if (known.repo?.branchPrefix === undefined) return false; // a local path: read in place
    if (known.doubted || known.problem !== undefined || known.refused !== undefined) return false;
    return this.now() - read.at < trustMs;
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  private async refreshOne(url: string, branchPrefix: string): Promise<void> {
    const known = this.known.get(url) ?? { heads: new Map<string, string>() };
    this.known.set(url, known);
    if (this.trusted(known, branchPrefix)) return;
    try {
      known.repo ??= this.opts.open(url);
      const at = this.now();
      await known.repo.refresh();
      const prefix = clusterRefPrefix(branchPrefix);
      const heads = new Map<string, string>();
      for (const [ref, oid] of await listRefs(known.repo.gitdir, prefix))
        heads.set(ref.slice(prefix.length), oid);
      known.heads = heads;
      known.read = { at, prefix: branchPrefix };
      delete known.doubted;
      if (known.problem !== undefined) this.opts.log.info(`render repository ${url} answers again`);
      delete known.problem;
    } catch (error) {
      const problem = `render repository ${url} cannot be read: ${(error as Error).message}`;
      // Said when it starts or changes, not at every refresh.
      if (problem !== known.problem)
        this.opts.log.warn(`${problem}; the branches of its clusters keep their last published state`);
      known.problem = problem;
    }
  }
}

function countBy(urls: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const url of urls) counts.set(url, (counts.get(url) ?? 0) + 1);
  return counts;
}
