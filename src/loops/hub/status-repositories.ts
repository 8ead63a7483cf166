// The status repositories as the hub reads them (docs/git-budget.md#status-repositories). Each
// pass hands over the assignment it computed from the fleet (cluster → URL, none for the fleet
// repository); the hub keeps one repository (a mirror for a URL) per status repository and
// refreshes them at every look of the cluster monitor, which sees their status and heartbeat refs
// as if they were in the fleet repository, and at a pass. A mirror's read stands for `trustMs`
// at a pass (the hub wires two monitor periods: looks come a little more than a period apart):
// the monitor reads every repository each period and asks for a pass when one moved, so a pass
// over a source push need not wait for them.
//
// Each cluster is judged from its assigned repository, with two exceptions:
//   - the repository cannot be read: the cluster's status is *unreadable*. Its last report (from
//     the mirror as last fetched, else where it was before) still counts, the monitor does not
//     judge it (no NotReady, no eviction), and the pass result names it;
//   - the repository holds no status of the cluster yet (it was just moved there): the report
//     where it was before counts (the previous status repository, else the fleet repository),
//     until its agent writes to the new one, so a move makes no NotReady flap.
import { listRefs } from '../../adapters/git/list-refs.js';
import { openObjectStore } from '../../adapters/git/object-store.js';
import { heartbeatRefPrefix, statusRefPrefix } from '../../core/publish/hub-refs.js';
import type { Logger } from '../runtime/logger.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import type { ReadContext } from './read-git-state.js';
import { notRefreshedAhead, startRefreshAhead, type RefreshAhead } from './refresh-ahead.js';

/** Cluster → the URL of its status repository; absent: the fleet repository. */
export type StatusAssignmentByCluster = ReadonlyMap<string, string>;

/** What a pass reads of the clusters' status. */
export interface StatusRead {
  /** Cluster → head of its status branch, wherever it is read from. */
  heads: Map<string, string>;
  /** Cluster → where its status commit is read (absent: the fleet repository). */
  reads: Map<string, ReadContext>;
  /** Cluster → why its status repository cannot be read now. */
  unreadable: Map<string, string>;
}

interface Known {
  repo?: HubRepo;
  problem?: string;
  /** Status and heartbeat refs (full names) of its last good read. */
  refs: Map<string, string>;
  /** When its last good read began (`now`). */
  readAt?: number;
}

/** The hub's status repositories: refreshed together, read per cluster. */
export class StatusRepositories {
  private assignment: StatusAssignmentByCluster = new Map();
  private previous: StatusAssignmentByCluster = new Map();
  private readonly known = new Map<string, Known>();
  private prefix: string | undefined;
  private assigned = false;
  private keys: ReadonlyMap<string, string | undefined> | undefined;

  constructor(
    private readonly opts: {
      /** Returns the repository of a URL or path (throws when a path is no repository). */
      open: (url: string) => HubRepo;
      branchPrefix: () => string;
      log: Logger;
      /**
       * How long a mirror's last good read stands at a pass (0, the default: a pass reads them
       * all); the monitor's look always reads. A local path is read in place at every pass.
       */
      trustMs?: number;
      /** The clock of `trustMs`, in milliseconds (default Date.now). */
      now?: () => number;
    },
  ) {}

  /** Takes the assignment of the fleet just loaded (and its branch prefix); the one before is kept for clusters that moved. */
  assign(next: StatusAssignmentByCluster, branchPrefix?: string): void {
    if (branchPrefix !== undefined) this.prefix = branchPrefix;
    this.assigned = true;
    if (sameAssignment(next, this.assignment)) return;
    this.previous = this.assignment;
    this.assignment = next;
  }

  /** Takes each registered cluster's key (gitfleet.io/signing-key) from the fleet just loaded. */
  assignKeys(keys: ReadonlyMap<string, string | undefined>): void {
    this.keys = keys;
  }

  /**
   * Each registered cluster's key as the last pass loaded the fleet (undefined: none), which the
   * cluster monitor checks heartbeats and status heads with (signed-liveness.ts); undefined
   * before a pass loaded one.
   */
  signingKeys(): ReadonlyMap<string, string | undefined> | undefined {
    return this.keys;
  }

  /** The git directory holding a cluster's status or heartbeat ref (full name); undefined: the fleet repository's. */
  gitdirOf(cluster: string, ref: string): string | undefined {
    const at = this.sourceOf(cluster, ref);
    return at === undefined || at === 'fleet' ? undefined : at.gitdir;
  }

  /**
   * The URL of a cluster's status repository, undefined for the fleet repository; null before
   * the first assignment (not known yet). The doorbell's push slots group clusters by it.
   */
  repositoryOf(cluster: string): string | undefined | null {
    return this.assigned ? this.assignment.get(cluster) : null;
  }

  /** Returns the git directory of a status repository the hub has read (its mirror, for a URL), or undefined. */
  gitdirOfRepository(url: string): string | undefined {
    return this.known.get(url)?.repo?.gitdir;
  }

  /** Whether any cluster is assigned a status repository. */
  active(): boolean {
    return this.assignment.size > 0;
  }

  /**
   * Whether the status heads in the fleet repository are all there is: a pass has given an
   * assignment and it names no status repository. Before the first (a process just started) it
   * is not known, so a pass must load the fleet to find out.
   */
  fleetOnly(): boolean {
    return this.assigned && !this.active();
  }

  /**
   * For a pass: refreshes every assigned repository (and those clusters moved from) but those
   * `ahead` refreshed (refresh-ahead.ts) and the mirrors read within `trustMs`.
   */
  async refresh(ahead?: RefreshAhead): Promise<void> {
    const urls = await notRefreshedAhead(this.urls(), this.branchPrefix(), ahead);
    await Promise.all(urls.map((url) => this.refreshOne(url, true)));
  }

  /** Starts refreshing what `refresh` would, ahead of a pass that has not loaded the fleet yet; undefined when nothing is assigned yet. */
  refreshAhead(): RefreshAhead | undefined {
    if (!this.active()) return undefined;
    return startRefreshAhead(this.urls(), this.branchPrefix(), (url) => this.refreshOne(url, true));
  }

  /** For the monitor's look: reads every assigned repository; returns whether a status or heartbeat ref moved. */
  async look(): Promise<boolean> {
    const moved = await Promise.all([...this.urls()].map((url) => this.refreshOne(url, false)));
    return moved.some(Boolean);
  }

  private urls(): Set<string> {
    return new Set([...this.assignment.values(), ...this.previous.values()]);
  }

  /** Returns the clusters whose status repository cannot be read now, with why. */
  unreadable(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [cluster, url] of this.assignment) {
      const problem = this.known.get(url)?.problem;
      if (problem !== undefined) out.set(cluster, problem);
    }
    return out;
  }

  /** Returns the status and heartbeat refs of every cluster from where it is read, over the fleet repository's own. */
  overlay(fleetRefs: ReadonlyMap<string, string>): Map<string, string> {
    const refs = new Map(fleetRefs);
    const prefix = this.branchPrefix();
    for (const cluster of this.assignment.keys()) {
      for (const ref of [`${statusRefPrefix(prefix)}${cluster}`, `${heartbeatRefPrefix(prefix)}${cluster}`]) {
        const at = this.sourceOf(cluster, ref);
        if (at === undefined) refs.delete(ref);
        else if (at !== 'fleet') refs.set(ref, at.oid);
      }
    }
    return refs;
  }

  /** Returns what the pass reads of each cluster's status, the fleet repository's heads given. */
  read(ctx: ReadContext, fleetHeads: ReadonlyMap<string, string>): StatusRead {
    const heads = new Map(fleetHeads);
    const reads = new Map<string, ReadContext>();
    const prefix = statusRefPrefix(this.branchPrefix());
    for (const cluster of this.assignment.keys()) {
      const at = this.sourceOf(cluster, `${prefix}${cluster}`);
      if (at === undefined) heads.delete(cluster);
      else if (at !== 'fleet') {
        heads.set(cluster, at.oid);
        reads.set(cluster, { store: openObjectStore(at.gitdir, ctx.cache.packs), cache: ctx.cache });
      }
    }
    return { heads, reads, unreadable: this.unreadable() };
  }

  /** Where a cluster's ref is read: its repository, else where it was before, else the fleet repository. */
  private sourceOf(cluster: string, ref: string): { oid: string; gitdir: string } | 'fleet' | undefined {
    for (const url of [this.assignment.get(cluster), this.previous.get(cluster)]) {
      if (url === undefined) return 'fleet';
      const known = this.known.get(url);
      const oid = known?.refs.get(ref);
      if (oid !== undefined && known?.repo) return { oid, gitdir: known.repo.gitdir };
    }
    return 'fleet';
  }

  private branchPrefix(): string {
    return this.prefix ?? this.opts.branchPrefix();
  }

  /** Whether a pass may take a repository's last read as it is (see `trustMs`). */
  private trusted(known: Known): boolean {
    const trustMs = this.opts.trustMs ?? 0;
    if (trustMs <= 0 || known.readAt === undefined || known.problem !== undefined) return false;
    if (known.repo?.branchPrefix === undefined) return false; // a local path: read in place
    return this.now() - known.readAt < trustMs;
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  private async refreshOne(url: string, trusting: boolean): Promise<boolean> {
    const known = this.known.get(url) ?? { refs: new Map<string, string>() };
    this.known.set(url, known);
    if (trusting && this.trusted(known)) return false;
    try {
      known.repo ??= this.opts.open(url);
      const at = this.now();
      await known.repo.refresh();
      const prefix = this.branchPrefix();
      const refs = new Map([
        ...(await listRefs(known.repo.gitdir, statusRefPrefix(prefix))),
        ...(await listRefs(known.repo.gitdir, heartbeatRefPrefix(prefix))),
      ]);
      const moved = !sameRefs(refs, known.refs);
      known.refs = refs;
      known.readAt = at;
      if (known.problem !== undefined) this.opts.log.info(`status repository ${url} answers again`);
      delete known.problem;
      return moved;
    } catch (error) {
      const problem = `status repository ${url} cannot be read: ${(error as Error).message}`;
      // Said when it starts or changes, not at every refresh.
      if (problem !== known.problem)
        this.opts.log.warn(
          `${problem}; the status of its clusters is unreadable (not NotReady), their last reports stand`,
        );
      known.problem = problem;
      return false;
    }
  }
}

function sameAssignment(a: StatusAssignmentByCluster, b: StatusAssignmentByCluster): boolean {
  return a.size === b.size && [...a].every(([c, url]) => b.get(c) === url);
}

function sameRefs(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([r, oid]) => b.get(r) === oid);
}
