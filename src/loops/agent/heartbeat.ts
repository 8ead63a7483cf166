// The agent's heartbeat (docs/failover.md#knowing-a-cluster-is-gone), gitfleet's form of
// Karmada's cluster lease (pkg/controllers/status/cluster_status_controller.go renews it; the
// cluster controller reads it): every renew interval the agent replaces the one commit of
// `<prefix>heartbeat/<cluster>` with a new parentless commit of the empty tree, whose message
// holds a counter. The hub watches only that the ref moved, by its own clock; the counter is
// for people. With `--signing-key` the commit is signed, and for a cluster registered with its
// key the hub takes a move only to a head that key signed, whose committer time is later than
// the last it took (loops/hub/signed-liveness.ts: an old heartbeat pushed back is no sign of life).
//
// This is the one ref gitfleet moves without fast-forward, and that is safe: it has one
// writer (the cluster's own agent), it has no history (each commit has no parent, so the ref
// never grows and every replaced commit is unreachable, for gc to reclaim), and nothing reads
// its past. The move is still a compare-and-swap against the value the remote advertises, so
// a second agent for the same cluster cannot interleave half a push with ours.
//
// The heartbeat runs on its own timer, beside the apply loop: a slow or failing pass does not
// stop it (a cluster whose API server is down still has a live agent, which reports NotReady
// in its status), and a failing heartbeat never stops the apply loop. A failed push is logged
// once and tried again at the next interval; the first success after failures is logged too.
//
// While the hub accepts the agent's beacons over the doorbell (doorbell.ts), the push may be
// stretched (`stretchedMs`): the timer still ticks every interval, but a tick writes only once
// the stretched period has passed since the last write. The tick after the doorbell is lost
// writes again, so the hub hears from the agent within one interval either way.
//
// While the Git host rate-limits the repository (rate-limit-wait.ts), the next beat waits as long
// as the host asked instead of the interval, and is not logged as a failure (the remote adapter
// logs the limit): beats are never queued, the next one after the limit is the only push, and
// nothing is lost, since a heartbeat says only "alive now". With the push pacer
// (push-pacer.ts) a beat waits for the pacer's opening the same way, and one that a status
// push made needless (a status is a sign of life too) is not written.
import { toGitObject } from '../../adapters/git/hash-object.js';
import { makeCommit, type GitSignature } from '../../adapters/git/make-commit.js';
import { signCommit, type CommitSigner } from '../../adapters/signing/commit-signer.js';
import { readCommit } from '../../adapters/git/read-typed-object.js';
import { readRef } from '../../adapters/git/read-ref.js';
import { updateRefs } from '../../adapters/git/update-ref.js';
import { writeObjects } from '../../adapters/git/write-objects.js';
import type { CancelTimer, Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { rateLimitWait } from '../runtime/rate-limit-wait.js';
import type { AgentRepo } from './agent-repo.js';
import type { PushPacer } from './push-pacer.js';

/** Karmada's lease settings, in milliseconds (`--cluster-lease-duration` and its renew fraction). */
export interface HeartbeatSettings {
  /** `--cluster-lease-duration` (default 40 s): how long one renewal is meant to prove life. */
  leaseDurationMs: number;
  /** `--cluster-lease-renew-interval-fraction` (default 0.25): renew every duration × fraction. */
  renewIntervalFraction: number;
}

/** Karmada's defaults: a 40 s lease renewed every 10 s. */
export const defaultHeartbeatSettings: HeartbeatSettings = {
  leaseDurationMs: 40_000,
  renewIntervalFraction: 0.25,
};

/** Returns the renew interval of the settings, in whole milliseconds (at least 1). */
export function renewIntervalMs(settings: HeartbeatSettings): number {
  return Math.max(1, Math.round(settings.leaseDurationMs * settings.renewIntervalFraction));
}

/** The empty tree, which every heartbeat commit points at. */
const emptyTree = toGitObject('tree', new Uint8Array(0));

export interface WriteHeartbeatOptions {
  repo: AgentRepo;
  /** The heartbeat ref (hub-refs.ts heartbeatRef). */
  ref: string;
  cluster: string;
  author: GitSignature;
  /** Told when moving the ref recovered the locks a killed gitfleet writer left. */
  warn?: (message: string) => void;
  /** Signs the heartbeat commit (`agent --signing-key`); absent: unsigned. */
  signer?: CommitSigner;
}

/** Replaces the heartbeat ref's commit with the next one and publishes it; returns the new commit. */
export async function writeHeartbeat(opts: WriteHeartbeatOptions): Promise<string> {
  const { gitdir } = opts.repo;
  const head = await readRef(gitdir, opts.ref);
  const counter = (head === null ? 0 : await counterOf(gitdir, head)) + 1;
  const unsigned = makeCommit({
    tree: emptyTree.oid,
    parents: [],
    author: opts.author,
    message: [
      `heartbeat: ${opts.cluster} ${counter}`,
      '',
      `The agent of ${opts.cluster} replaces this commit at every renewal; the hub only looks`,
      'at whether the ref moved, by its own clock.',
    ].join('\n'),
  });
  const commit = await signCommit(unsigned, opts.signer);
  await writeObjects({ gitdir, objects: [emptyTree, commit] });
  await opts.repo.publish([{ ref: opts.ref, oldOid: head, newOid: commit.oid, replace: true }]);
  // A remote repository's publish moves the mirror's ref itself; a local one leaves it to us.
  if ((await readRef(gitdir, opts.ref)) !== commit.oid) {
    await updateRefs({
      gitdir,
      updates: [{ ref: opts.ref, newOid: commit.oid, expectedOld: head }],
      allowNonFastForward: true,
      ...(opts.warn ? { warn: opts.warn } : {}),
    });
  }
  return commit.oid;
}

/** Returns the counter of a heartbeat commit, 0 when it cannot be read (a new count starts). */
async function counterOf(gitdir: string, commit: string): Promise<number> {
  try {
    const { message } = await readCommit({ gitdir }, commit);
    const n = Number(/^heartbeat: \S+ (\d+)$/m.exec(message)?.[1] ?? 0);
    return Number.isSafeInteger(n) ? n : 0;
  } catch {
    return 0;
  }
}

export interface HeartbeatOptions {
  /** Writes one heartbeat (writeHeartbeat with the agent's repository and identity). */
  write: () => Promise<unknown>;
  /** Whether the agent holds its Lease now (default: always); a beat while not is skipped. */
  leading?: () => boolean;
  intervalMs: number;
  /** While it returns a period, a beat is written only once that long since the last write. */
  stretchedMs?: () => number | undefined;
  /**
   * Paces the pushes with the status's (push-pacer.ts): a beat waits for its opening, gives it
   * to a status that waits for it, and is not written within an interval of a status push.
   */
  pacer?: PushPacer;
  clock: Clock;
  log: Logger;
}

/** A running heartbeat. */
export interface Heartbeat {
  /** Stops the timer; resolves once a write in flight has finished. No write starts after. */
  stop(): Promise<void>;
}

/** Writes a heartbeat now and then every interval (from the end of the last write) until stopped. */
export function startHeartbeat(opts: HeartbeatOptions): Heartbeat {
  const timer = new HeartbeatTimer(opts);
  timer.beat();
  return { stop: () => timer.stop() };
}

/** The heartbeat's timer and what it remembers between beats. */
class HeartbeatTimer {
  private running = true;
  private cancel: CancelTimer = () => undefined;
  private failing = false;
  private standingBy = false;
  private inFlight: Promise<void> = Promise.resolve();
  private readonly leading: () => boolean;
  private lastWrittenAt = -Infinity;
  private nextMs: number;

  constructor(private readonly opts: HeartbeatOptions) {
    this.leading = opts.leading ?? (() => true);
    this.nextMs = opts.intervalMs;
  }

  /** Writes a beat, if one is due, and sets the timer for the next once it is done. */
  beat(): void {
    this.nextMs = this.opts.intervalMs;
    this.inFlight = this.write().then(undefined, (error: unknown) => this.failed(error));
    void this.inFlight.then(() => {
      if (this.running) this.cancel = this.opts.clock.setTimer(() => this.beat(), this.nextMs);
    });
  }

  /** Stops the timer; resolves once a write in flight has finished. */
  async stop(): Promise<void> {
    this.running = false;
    this.cancel();
    await this.inFlight;
  }

  private async write(): Promise<void> {
    const stretched = this.opts.stretchedMs?.();
    const startedAt = this.opts.clock.now();
    if (!this.due(startedAt, stretched)) return;
    this.opts.pacer?.pushed();
    // Inside the async function a synchronous throw of write() rejects instead of escaping the
    // timer's callback, where it would end the process (issue 27: NotLeading from a race).
    await this.opts.write();
    // From the start of the write, as the hub measures from when the ref moved.
    this.lastWrittenAt = startedAt;
    if (this.standingBy) this.opts.log.info('heartbeat: leading again, written');
    else if (this.failing) this.opts.log.info('heartbeat: written again');
    this.standingBy = false;
    this.failing = false;
  }

  /** Whether a beat at `now` writes: not within the stretched period or the pacer's, and only while leading. */
  private due(now: number, stretched: number | undefined): boolean {
    const { opts } = this;
    // A status push proved life as well as a heartbeat would (the hub takes either).
    const since = now - Math.max(this.lastWrittenAt, opts.pacer?.lastPushAt() ?? -Infinity);
    if (stretched !== undefined && since < stretched) return false;
    if (opts.pacer && (since < opts.intervalMs || opts.pacer.statusWaiting())) return false;
    // An agent that lost its Lease stands by (docs/production.md): its heartbeat waits too,
    // rather than proving the life of a cluster it does not serve now.
    if (!this.leading()) {
      if (!this.standingBy) opts.log.info('heartbeat: standing by (this agent does not hold its Lease)');
      this.standingBy = true;
      return false;
    }
    const paced = opts.pacer?.waitMs() ?? 0;
    if (paced > 0) {
      this.nextMs = paced;
      return false;
    }
    return true;
  }

  /** A failed write: a rate limit waits its time, any other failure is warned of once. */
  private failed(error: unknown): void {
    const wait = rateLimitWait(error);
    if (wait !== undefined) {
      this.nextMs = Math.max(this.opts.intervalMs, wait);
      return;
    }
    if (!this.failing) {
      this.opts.log.warn(
        `heartbeat: ${(error as Error).message}; trying again every ${this.opts.intervalMs} ms (applying goes on)`,
      );
    }
    this.failing = true;
  }
}
