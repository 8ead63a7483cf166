// The controller pattern's work queue (as client-go's workqueue): an event only says "look at
// this key again"; the queue hands keys to workers.
//
// - A key is queued at most once: adding a queued key does nothing.
// - A key is processed by one worker at a time: adding a key that is being processed marks it
//   dirty, and it is queued again when the worker calls `done`, so the latest event is never
//   lost and never handled twice at once.
// - A failing key is retried after an exponential, capped, jittered delay (backoff.ts); a
//   success `forget`s its failures. Until that delay has passed, adding the key (a periodic
//   resync, a watch event, a webhook) does not run it early: the event is folded into the
//   pending retry, so the delay the worker logs is the one that really happens.
// - A key told to wait (`waitFor`: the Git host's rate limit) is held the same way for exactly
//   that long, without counting a failure.
// - After `shutDown` nothing is queued any more, pending timers are cancelled, and `next`
//   resolves undefined, so workers stop once their current item is done.
import { backoffDelay, type BackoffSettings } from './backoff.js';
import type { CancelTimer, Clock } from './clock.js';

export interface WorkQueue<K> {
  /** Queues the key now (or, for a key in backoff, when its retry is due), unless it is already queued. */
  add(key: K): void;
  /** Queues the key after a delay; of several pending delays for one key, the earliest wins. */
  addAfter(key: K, delayMs: number): void;
  /** Counts a failure of the key, queues it after the backoff delay and returns that delay. */
  retryLater(key: K): number;
  /** Queues the key after `delayMs`, holding events back until then, without counting a failure. */
  waitFor(key: K, delayMs: number): void;
  /** Forgets the key's failures, so its next retry starts from the base delay. */
  forget(key: K): void;
  /** Returns the number of consecutive failures counted for the key. */
  failures(key: K): number;
  /** Waits for the next key to process; undefined once the queue is shut down. */
  next(): Promise<K | undefined>;
  /** Tells the queue a worker finished the key; queues it again if it was added meanwhile. */
  done(key: K): void;
  /** Stops the queue: nothing more is handed out or scheduled. */
  shutDown(): void;
  /** The number of keys waiting to be handed out. */
  readonly length: number;
  /** True once shutDown was called. */
  readonly isShutDown: boolean;
}

/** Returns an empty work queue driven by the given clock and backoff settings. */
export function createWorkQueue<K>(opts: { clock: Clock; backoff: BackoffSettings }): WorkQueue<K> {
  return new ControllerQueue<K>(opts.clock, opts.backoff);
}

// The queue's state; its methods are bound (arrow fields), so a caller may pass them on alone.
class ControllerQueue<K> implements WorkQueue<K> {
  private readonly queue: K[] = [];
  private readonly dirty = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly failureCounts = new Map<K, number>();
  private readonly timers = new Map<K, { at: number; cancel: CancelTimer }>();
  /** Keys in backoff: the time before which they are not handed out. */
  private readonly notBefore = new Map<K, number>();
  private readonly waiters: ((key: K | undefined) => void)[] = [];
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly backoff: BackoffSettings,
  ) {}

  add = (key: K): void => this.addAfter(key, 0);

  addAfter = (key: K, delayMs: number): void => {
    if (this.stopped) return;
    const wait = Math.max(delayMs, this.backoffLeft(key));
    if (wait <= 0) return this.enqueue(key);
    const at = this.clock.now() + wait;
    const pending = this.timers.get(key);
    if (pending && pending.at <= at) return;
    pending?.cancel();
    const cancel = this.clock.setTimer(() => {
      this.timers.delete(key);
      this.enqueue(key);
    }, wait);
    this.timers.set(key, { at, cancel });
  };

  retryLater = (key: K): number => {
    const count = (this.failureCounts.get(key) ?? 0) + 1;
    this.failureCounts.set(key, count);
    const delay = backoffDelay(count, this.backoff);
    // The retry replaces any earlier timer: an event does not cut the backoff short.
    this.holdFor(key, delay);
    return delay;
  };

  waitFor = (key: K, delayMs: number): void => this.holdFor(key, Math.max(0, delayMs));

  forget = (key: K): void => {
    this.failureCounts.delete(key);
    this.notBefore.delete(key);
  };

  failures = (key: K): number => this.failureCounts.get(key) ?? 0;

  next = (): Promise<K | undefined> => {
    if (this.stopped) return Promise.resolve(undefined);
    const key = this.queue.shift();
    if (key === undefined) return new Promise((resolve) => this.waiters.push(resolve));
    this.dirty.delete(key);
    this.processing.add(key);
    return Promise.resolve(key);
  };

  done = (key: K): void => {
    this.processing.delete(key);
    if (!this.dirty.has(key) || this.stopped) return;
    // Added while a failing run was in hand: the pending retry runs it, not this event.
    if (this.backoffLeft(key) > 0) this.dirty.delete(key);
    else this.push(key);
  };

  shutDown = (): void => {
    this.stopped = true;
    this.notBefore.clear();
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
    this.queue.length = 0;
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
  };

  get length(): number {
    return this.queue.length;
  }

  get isShutDown(): boolean {
    return this.stopped;
  }

  private push(key: K): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      this.dirty.delete(key);
      this.processing.add(key);
      waiter(key);
    } else this.queue.push(key);
  }

  private enqueue(key: K): void {
    if (this.stopped || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (!this.processing.has(key)) this.push(key);
  }

  /** How long the key must still wait for its backoff (0: none). */
  private backoffLeft(key: K): number {
    return Math.max(0, (this.notBefore.get(key) ?? 0) - this.clock.now());
  }

  /** Holds the key back until `delay` from now and queues it then; an event does not cut it short. */
  private holdFor(key: K, delay: number): void {
    this.notBefore.set(key, this.clock.now() + delay);
    this.timers.get(key)?.cancel();
    this.timers.delete(key);
    this.addAfter(key, delay);
  }
}
