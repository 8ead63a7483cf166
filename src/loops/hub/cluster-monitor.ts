// The hub's cluster monitor (docs/failover.md#knowing-a-cluster-is-gone): every monitor period
// it lists the heartbeat and status refs (refs only, no tree is read), applies the rules of
// cluster-monitor-rules.ts with the hub's monotonic clock, and when the verdicts change asks
// the hub loop for a pass, which writes the judged status. It is a Trigger, so the hub loop
// starts and stops it with the others; `verdicts()` is what the pass reads
// (HubFailover.verdicts).
//
// Registered clusters are those with a cluster branch that is not tombstoned: the hub writes a
// branch for every registered cluster and tombstones it when the registration goes, so the
// monitor needs no fleet of its own. A cluster registered since the last pass is judged from
// the pass that writes its branch on.
//
// For a remote repository the refs are those the remote advertised at the hub's last poll
// that succeeded (`observe`), and a look counts as made at the time of that poll: while the
// hub cannot reach the Git host its time stands still for the monitor, so an outage of the
// host (or of the hub's network) judges nobody. It resumes with what the next poll brings.
// Heartbeats are read from the advertisement alone; their commits are fetched only for clusters
// whose registration names a key (hub-remote-setup.ts), for their signatures.
//
// With `signingKeys`, a head counts as a sign of life only when signed by the cluster's
// registered key (signed-liveness.ts): a forged heartbeat or status push keeps nobody Ready.
import { listRefs } from '../../adapters/git/list-refs.js';
import { readCommit } from '../../adapters/git/read-typed-object.js';
import type { ClusterVerdict } from '../../core/failover/monitored-status.js';
import { clusterRefPrefix, heartbeatRefPrefix, statusRefPrefix } from '../../core/publish/hub-refs.js';
import type { CancelTimer, Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { Trigger } from '../runtime/trigger.js';
import {
  judgeClusters,
  newMonitorMemory,
  sameVerdicts,
  type ClusterMonitorSettings,
  type MonitorLook,
} from './cluster-monitor-rules.js';
import { signedLiveness, type LivenessRef, type SignedLiveness } from './signed-liveness.js';
import { tombstoneTree } from './tombstone-tree.js';
import type { StatusRepositories } from './status-repositories.js';
import type { RenderRepositories } from './render-repositories.js';

export interface ClusterMonitorOptions {
  /** The git directory whose refs are read (the repository, or a remote's mirror). */
  gitdir: string;
  branchPrefix: string;
  settings: ClusterMonitorSettings;
  /** The hub's monotonic clock, in milliseconds (never the wall clock: it may jump). */
  elapsed: () => number;
  /** The timers of the monitor period. */
  clock: Clock;
  log: Logger;
  /**
   * For a remote: the branches it advertised at the last poll that succeeded and the monotonic
   * time of that poll, undefined before the first (default: the refs of `gitdir`, now).
   */
  observe?: () => RefSnapshot | undefined;
  /**
   * A gap between two looks longer than this means the hub saw nothing meanwhile and starts
   * over (default: the grace period; a remote's hub polling less often sets it longer).
   */
  blindAfterMs?: number;
  /**
   * The status repositories (status-repositories.ts): refreshed at every look, their status and
   * heartbeat refs read in place of the fleet repository's, and a cluster whose repository
   * cannot be read is not judged at all (unreadable is not NotReady).
   */
  statusRepositories?: StatusRepositories;
  /**
   * The render repositories (render-repositories.ts): a cluster whose branch lives in one is
   * judged by its branch there (as the last pass left it), not by the fleet repository's.
   */
  renderRepositories?: RenderRepositories;
  /** The doorbell's beacons by cluster (cluster-beacons.ts); absent: no doorbell. */
  beacons?: () => ReadonlyMap<string, number>;
  /**
   * Each registered cluster's key (gitfleet.io/signing-key; undefined: none), as the last pass
   * loaded the fleet; undefined before a pass did, when the monitor does not look yet. Absent:
   * every head is taken as it is.
   */
  signingKeys?: () => ReadonlyMap<string, string | undefined> | undefined;
}

/** Branches (full names → commits) as seen at one time of the hub's monotonic clock. */
export interface RefSnapshot {
  at: number;
  refs: ReadonlyMap<string, string>;
}

/** The monitor: a trigger of the hub loop, and the verdicts the pass reads. */
export interface ClusterMonitor extends Trigger {
  /** The clusters judged Unknown at the last look. */
  verdicts(): ReadonlyMap<string, ClusterVerdict>;
  /** Whether it judges already: its last look came more than a grace period after it started. */
  judging(): boolean;
  /** Looks at the refs now; returns whether the verdicts changed. */
  look(): Promise<boolean>;
}

/** Returns a monitor whose memory starts now: it judges no one for a full grace period. */
export function clusterMonitor(opts: ClusterMonitorOptions): ClusterMonitor {
  const monitor = new Monitor(opts);
  return {
    name: `cluster monitor every ${opts.settings.periodMs} ms`,
    verdicts: () => monitor.verdicts,
    judging: () => monitor.judging(),
    look: () => monitor.look(),
    start: (notify) => monitor.start(notify),
    stop: () => monitor.stop(),
  };
}

type Notify = (reason: string) => void;

/** The monitor's memory, timer and verdicts between looks. */
class Monitor {
  verdicts: ReadonlyMap<string, ClusterVerdict> = new Map();
  private readonly memory: ReturnType<typeof newMonitorMemory>;
  private cancel: CancelTimer | undefined;
  private running = false;
  private failing = false;
  private readonly tombstoned = new Map<string, boolean>(); // cluster branch head → tombstoned?
  private statusMoved = false;
  private readonly liveness: SignedLiveness;

  constructor(private readonly opts: ClusterMonitorOptions) {
    this.memory = newMonitorMemory(opts.elapsed());
    this.liveness = signedLiveness({ log: opts.log });
  }

  /** Whether its last look came more than a grace period after it started. */
  judging(): boolean {
    const { memory } = this;
    return (
      memory.lastLookAt !== undefined &&
      memory.lastLookAt - memory.startedAt > this.opts.settings.gracePeriodMs
    );
  }

  /** Looks at the refs now; returns whether the verdicts changed. */
  async look(): Promise<boolean> {
    const { opts } = this;
    const keys = opts.signingKeys?.();
    if (opts.signingKeys && keys === undefined) return false; // no pass has read the keys yet
    const status = opts.statusRepositories;
    if (status?.active()) this.statusMoved = (await status.look()) || this.statusMoved;
    const snapshot = opts.observe
      ? opts.observe()
      : { at: opts.elapsed(), refs: await listRefs(opts.gitdir, `refs/heads/${opts.branchPrefix}`) };
    if (snapshot === undefined) return false;
    const refs = status?.active() ? status.overlay(snapshot.refs) : snapshot.refs;
    const clusters = new Map(await readHeads(opts, refs, this.tombstoned, { liveness: this.liveness, keys }));
    for (const cluster of status?.unreadable().keys() ?? []) clusters.delete(cluster);
    const next = judgeClusters(this.memory, { at: snapshot.at, clusters }, opts.settings, opts.blindAfterMs);
    if (sameVerdicts(next, this.verdicts)) return false;
    this.logChanges(next);
    this.verdicts = next;
    return true;
  }

  start(notify: Notify): void {
    this.running = true;
    this.schedule(notify);
  }

  stop(): Promise<void> {
    this.running = false;
    this.cancel?.();
    return Promise.resolve();
  }

  /** Logs the clusters judged Unknown now and those no longer judged. */
  private logChanges(next: ReadonlyMap<string, ClusterVerdict>): void {
    for (const [cluster, v] of next)
      if (!this.verdicts.has(cluster))
        this.opts.log.warn(`cluster ${cluster} judged Unknown (${v.reason}): ${v.message}`, { cluster });
    for (const cluster of this.verdicts.keys())
      if (!next.has(cluster))
        this.opts.log.info(`cluster ${cluster} reports again; no longer judged`, { cluster });
  }

  /** Looks once a period, from the end of the last look, while running. */
  private schedule(notify: Notify): void {
    this.cancel = this.opts.clock.setTimer(() => {
      if (!this.running) return;
      this.look()
        .then(
          (changed) => this.looked(changed, notify),
          (error: unknown) => {
            // Logged once until a look succeeds again; the next period tries again.
            if (!this.failing)
              this.opts.log.warn(`cluster monitor: ${(error as Error).message}; trying again`);
            this.failing = true;
          },
        )
        .finally(() => {
          if (this.running) this.schedule(notify);
        });
    }, this.opts.settings.periodMs);
  }

  /** After a look: the loop is told when the verdicts changed or a status repository moved. */
  private looked(changed: boolean, notify: Notify): void {
    this.failing = false;
    if (changed && this.running) notify(`cluster verdicts changed (${describe(this.verdicts)})`);
    // A status repository's refs moved: the pass reads the new reports.
    else if (this.statusMoved && this.running) notify('a status repository moved');
    this.statusMoved = false;
  }
}

function describe(verdicts: ReadonlyMap<string, ClusterVerdict>): string {
  return verdicts.size === 0 ? 'none judged' : [...verdicts.keys()].map((c) => `${c}=Unknown`).join(', ');
}

/** Returns each registered cluster's heartbeat and status heads. */
async function readHeads(
  opts: ClusterMonitorOptions,
  refs: ReadonlyMap<string, string>,
  tombstoned: Map<string, boolean>,
  signed: { liveness: SignedLiveness; keys: ReadonlyMap<string, string | undefined> | undefined },
): Promise<MonitorLook['clusters']> {
  const named = (prefix: string): Map<string, string> => {
    const byCluster = new Map<string, string>();
    for (const [ref, oid] of refs) if (ref.startsWith(prefix)) byCluster.set(ref.slice(prefix.length), oid);
    return byCluster;
  };
  const fleetBranches = named(clusterRefPrefix(opts.branchPrefix));
  const render = opts.renderRepositories;
  const branches = render ? render.overlay(fleetBranches) : fleetBranches;
  const heartbeats = named(heartbeatRefPrefix(opts.branchPrefix));
  const status = named(statusRefPrefix(opts.branchPrefix));
  const clusters = new Map<string, { heartbeat: string | null; status: string | null; beacons?: number }>();
  const beacons = opts.beacons?.();
  const heads = new Set(branches.values());
  for (const head of [...tombstoned.keys()]) if (!heads.has(head)) tombstoned.delete(head);
  for (const [cluster, head] of branches) {
    if (await isTombstone(render?.gitdirOf(cluster) ?? opts.gitdir, cluster, head, tombstoned)) continue;
    const accept = (kind: LivenessRef, prefix: string, oid: string | undefined) => {
      const ref = `${prefix}${cluster}`;
      return signed.liveness.accept({
        cluster,
        kind,
        ref,
        oid: oid ?? null,
        key: signed.keys?.get(cluster),
        gitdir: opts.statusRepositories?.gitdirOf(cluster, ref) ?? opts.gitdir,
      });
    };
    clusters.set(cluster, {
      heartbeat: await accept('heartbeat', heartbeatRefPrefix(opts.branchPrefix), heartbeats.get(cluster)),
      status: await accept('status', statusRefPrefix(opts.branchPrefix), status.get(cluster)),
      ...(beacons?.has(cluster) ? { beacons: beacons.get(cluster) ?? 0 } : {}),
    });
  }
  signed.liveness.retain(new Set(clusters.keys()));
  return clusters;
}

/** Returns whether a cluster branch's head is a tombstone; each head is read once. */
async function isTombstone(
  gitdir: string,
  cluster: string,
  head: string,
  known: Map<string, boolean>,
): Promise<boolean> {
  const seen = known.get(head);
  if (seen !== undefined) return seen;
  const tombstone = (await readCommit({ gitdir }, head)).tree === tombstoneTree(cluster).root;
  known.set(head, tombstone);
  return tombstone;
}
