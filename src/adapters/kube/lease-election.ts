// Leader election over one coordination.k8s.io/v1 Lease (docs/production.md#leader-election),
// with the semantics of client-go's tools/leaderelection (leaderelection.go, resourcelock/
// leaselock.go), which kube-controller-manager and Karmada's components use:
//
//   what the candidate sees                         what it does
//   no Lease                                        creates it, holding it (a lost create race: not acquired)
//   held by another, seen unchanged < duration      stands by
//   held by another, seen unchanged >= duration     takes it: update with the resourceVersion read
//   released (holderIdentity empty)                 takes it at once, the same way
//   held by itself                                  renews: same acquireTime and transitions
//
// Expiry is judged by the candidate's own clock, from the moment it last saw the record change
// (the observed time), never by the acquireTime or renewTime in the record: those come from
// the holder's clock, which may be skewed. The duration is the record's leaseDurationSeconds
// (the holder's setting). Taking over bumps leaseTransitions. Every update carries the
// resourceVersion that was read, so when two candidates find the lease expired at once, the API
// server accepts one update and refuses the other with a conflict.
//
// A leader renews every retry period. It stops leading (isLeading() false, onLost listeners
// called) once no renewal has succeeded for the renew deadline: shorter than the lease
// duration, so it has stopped writing before anyone else may take the lease. client-go lets a
// renewal run for the whole deadline after the retry period; this is stricter by one retry
// period. A clean stop releases the lease: an update clearing holderIdentity (and a duration of
// one second, as client-go writes it), so a standby takes over without waiting.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { LeaseNamespaceMissing, microTime, type LeaseRecord, type LeaseStore } from './lease-store.js';

import type { CancelTimer, Clock } from '../../core/model/clock.js';
import type { Logger } from '../../core/model/logger.js';

/** The timings of an election, as kube-controller-manager's --leader-elect-* flags name them. */
export interface LeaseTimings {
  /** How long a standby waits, from when it last saw the record change, before taking it (15 s). */
  leaseDurationMs: number;
  /** How long a leader keeps leading without a successful renewal (10 s). */
  renewDeadlineMs: number;
  /** How often a leader renews and a standby tries (2 s). */
  retryPeriodMs: number;
}

export interface LeaseElectionOptions extends LeaseTimings {
  store: LeaseStore;
  /** This candidate's identity (leaseIdentity()). */
  identity: string;
  clock: Clock;
  /** Uniform in [0, 1): a standby's retry waits retryPeriod × (1 + 1.2 × random), as client-go's jitter. */
  random: () => number;
  /** Where the election says what happened (its info and warn lines). */
  log: Pick<Logger, 'info' | 'warn'>;
}

/** Returns `<hostname>_<uuid>`, the identity client-go's users give a candidate. */
export function leaseIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

/** Returns why the timings cannot work together (naming the flags), or undefined. */
export function leaseTimingsProblem(
  t: LeaseTimings,
  flag: (name: keyof LeaseTimings) => string,
): string | undefined {
  // client-go refuses the same: a leader must give up before the lease expires for the others,
  // and must try to renew more than once within its deadline.
  if (t.leaseDurationMs % 1000 !== 0 || t.leaseDurationMs <= 0)
    return `${flag('leaseDurationMs')} must be a whole number of seconds (a Lease holds seconds)`;
  if (t.leaseDurationMs <= t.renewDeadlineMs)
    return `${flag('leaseDurationMs')} must be longer than ${flag('renewDeadlineMs')}`;
  if (t.renewDeadlineMs <= t.retryPeriodMs)
    return `${flag('renewDeadlineMs')} must be longer than ${flag('retryPeriodMs')}`;
  if (t.retryPeriodMs <= 0) return `${flag('retryPeriodMs')} must be positive`;
  return undefined;
}

/** A candidate in the election of one Lease (a Leadership of loops/runtime/leadership.ts). */
export class LeaseElection {
  readonly elected = true;
  private observed: { raw: string; record: LeaseRecord; at: number } | undefined;
  private leading = false;
  private renewedAt = 0;
  private cancelRenew: CancelTimer = () => undefined;
  private cancelDeadline: CancelTimer = () => undefined;
  private readonly lostListeners: (() => void)[] = [];
  /** The step in flight: steps never overlap (a release waits for a renewal). */
  private running: Promise<unknown> = Promise.resolve();
  private lastHolder: string | undefined;
  private lastProblem = '';

  constructor(private readonly opts: LeaseElectionOptions) {}

  get identity(): string {
    return this.opts.identity;
  }

  get description(): string {
    return this.opts.store.description;
  }

  isLeading(): boolean {
    return this.leading && this.opts.clock.now() - this.renewedAt < this.opts.renewDeadlineMs;
  }

  onLost(listener: () => void): void {
    this.lostListeners.push(listener);
  }

  /** Tries until this candidate leads; false when `signal` aborts first. A missing namespace throws. */
  async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      if (this.isLeading()) return true;
      let acquired = false;
      try {
        acquired = await this.step(() => this.tryAcquireOrRenew());
      } catch (error) {
        if (error instanceof LeaseNamespaceMissing) throw error;
        this.problem(error);
      }
      if (acquired) {
        this.lead();
        return true;
      }
      const wait = this.opts.retryPeriodMs * (1 + 1.2 * this.opts.random());
      await new Promise<void>((resolve) => {
        // A standby has nothing else keeping its process alive: its wait does.
        const cancel = this.opts.clock.setTimer(
          () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
          wait,
          { holdProcess: true },
        );
        const onAbort = () => {
          cancel();
          resolve();
        };
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }
    return false;
  }

  /** Gives the lease up if this candidate holds it, so a standby takes over at once. */
  async release(): Promise<void> {
    const wasLeading = this.leading;
    this.stopRenewing();
    this.leading = false;
    if (!wasLeading) return;
    await this.step(async () => {
      const current = await this.opts.store.get();
      if (!current || current.record.holderIdentity !== this.opts.identity) return;
      const now = microTime(this.opts.clock.now());
      const released: LeaseRecord = {
        holderIdentity: '',
        leaseDurationSeconds: 1,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: current.record.leaseTransitions,
      };
      const answer = await this.opts.store.update(released, current.resourceVersion);
      if (answer !== 'conflict') this.opts.log.info(`${this.description}: released`);
    }).catch((error: unknown) =>
      this.opts.log.warn(
        `${this.description}: could not release (the others take over once it expires): ${message(error)}`,
      ),
    );
  }

  /**
   * One attempt to acquire or renew (client-go's tryAcquireOrRenew): returns whether this
   * candidate holds the lease afterwards; throws when the API server did not answer as it should.
   */
  async tryAcquireOrRenew(): Promise<boolean> {
    const { store, identity, clock } = this.opts;
    const mine = (acquireTime: string, transitions: number): LeaseRecord => ({
      holderIdentity: identity,
      leaseDurationSeconds: Math.round(this.opts.leaseDurationMs / 1000),
      acquireTime,
      renewTime: microTime(clock.now()),
      leaseTransitions: transitions,
    });
    const current = await store.get();
    if (!current) {
      const created = await store.create(mine(microTime(clock.now()), 0));
      if (created === 'conflict') return false;
      this.observe(created.record);
      return true;
    }
    this.observe(current.record);
    const holder = current.record.holderIdentity;
    const observed = this.observed!;
    const valid = clock.now() < observed.at + current.record.leaseDurationSeconds * 1000;
    if (holder !== '' && holder !== identity && valid) {
      this.noteHolder(holder);
      return false;
    }
    const record =
      holder === identity
        ? mine(current.record.acquireTime ?? microTime(clock.now()), current.record.leaseTransitions)
        : mine(microTime(clock.now()), current.record.leaseTransitions + 1);
    const updated = await store.update(record, current.resourceVersion);
    if (updated === 'conflict') return false;
    this.observe(updated.record);
    return true;
  }

  /** Records the record seen now; the observed time moves only when the record changed. */
  private observe(record: LeaseRecord): void {
    const raw = JSON.stringify(record);
    if (this.observed?.raw === raw) return;
    this.observed = { raw, record, at: this.opts.clock.now() };
  }

  private lead(): void {
    this.leading = true;
    this.renewedAt = this.opts.clock.now();
    this.lastHolder = this.opts.identity;
    this.lastProblem = '';
    this.opts.log.info(`${this.description}: leading as ${this.opts.identity}`);
    this.armDeadline();
    this.scheduleRenew();
  }

  private scheduleRenew(): void {
    // renew() catches the store's errors; anything else must not become an unhandled rejection.
    this.cancelRenew = this.opts.clock.setTimer(
      () => void this.renew().catch((error: unknown) => this.problem(error)),
      this.opts.retryPeriodMs,
    );
  }

  private armDeadline(): void {
    this.cancelDeadline();
    this.cancelDeadline = this.opts.clock.setTimer(
      () => this.lose(`no renewal succeeded within the renew deadline (${this.opts.renewDeadlineMs} ms)`),
      this.renewedAt + this.opts.renewDeadlineMs - this.opts.clock.now(),
    );
  }

  private async renew(): Promise<void> {
    if (!this.leading) return;
    let renewed = false;
    try {
      renewed = await this.step(() => this.tryAcquireOrRenew());
    } catch (error) {
      this.problem(error);
    }
    if (!this.leading) return;
    if (renewed && this.opts.clock.now() - this.renewedAt < this.opts.renewDeadlineMs) {
      this.renewedAt = this.opts.clock.now();
      this.lastProblem = '';
      this.armDeadline();
    } else if (!renewed && this.observed && this.observed.record.holderIdentity !== this.opts.identity) {
      return this.lose(`${this.observed.record.holderIdentity || 'nobody'} holds it now`);
    }
    if (!this.isLeading()) {
      return this.lose(`no renewal succeeded within the renew deadline (${this.opts.renewDeadlineMs} ms)`);
    }
    this.scheduleRenew();
  }

  private lose(why: string): void {
    if (!this.leading) return;
    this.leading = false;
    this.stopRenewing();
    this.opts.log.warn(`${this.description}: lost the lease (${why}); standing by`);
    // lose() runs from a timer: a listener's throw must neither escape it (ending the process)
    // nor keep the other listeners from hearing of the loss.
    for (const listener of this.lostListeners) {
      try {
        listener();
      } catch (error) {
        this.opts.log.warn(`${this.description}: a listener of the loss failed: ${message(error)}`);
      }
    }
  }

  private stopRenewing(): void {
    this.cancelRenew();
    this.cancelDeadline();
  }

  private step<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.running.then(fn, fn);
    this.running = next.catch(() => undefined);
    return next;
  }

  /** Says once who holds the lease, each time that changes, so a standby's log is not a stream. */
  private noteHolder(holder: string): void {
    if (holder === this.lastHolder) return;
    this.lastHolder = holder;
    this.opts.log.info(`${this.description}: held by ${holder}; standing by`);
  }

  /** Logs a failed attempt once per distinct message. */
  private problem(error: unknown): void {
    const text = message(error);
    if (text === this.lastProblem) return;
    this.lastProblem = text;
    this.opts.log.warn(`${this.description}: ${text}; trying again every ${this.opts.retryPeriodMs} ms`);
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
