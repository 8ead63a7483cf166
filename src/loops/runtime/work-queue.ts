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
  const queue: K[] = [];
  const dirty = new Set<K>();
  const processing = new Set<K>();
  const failures = new Map<K, number>();
  const timers = new Map<K, { at: number; cancel: CancelTimer }>();
  /** Keys in backoff: the time before which they are not handed out. */
  const notBefore = new Map<K, number>();
  const waiters: ((key: K | undefined) => void)[] = [];
  let stopped = false;

  const push = (key: K): void => {
    const waiter = waiters.shift();
    if (waiter) {
      dirty.delete(key);
      processing.add(key);
      waiter(key);
    } else queue.push(key);
  };
  const enqueue = (key: K): void => {
    if (stopped || dirty.has(key)) return;
    dirty.add(key);
    if (!processing.has(key)) push(key);
  };
  /** How long the key must still wait for its backoff (0: none). */
  const backoffLeft = (key: K): number => Math.max(0, (notBefore.get(key) ?? 0) - opts.clock.now());
  const addAfter = (key: K, delayMs: number): void => {
    if (stopped) return;
    const wait = Math.max(delayMs, backoffLeft(key));
    if (wait <= 0) return enqueue(key);
    const at = opts.clock.now() + wait;
    const pending = timers.get(key);
    if (pending && pending.at <= at) return;
    pending?.cancel();
    const cancel = opts.clock.setTimer(() => {
      timers.delete(key);
      enqueue(key);
    }, wait);
    timers.set(key, { at, cancel });
  };
  const add = (key: K): void => addAfter(key, 0);
  /** Holds the key back until `delay` from now and queues it then; an event does not cut it short. */
  const holdFor = (key: K, delay: number): void => {
    notBefore.set(key, opts.clock.now() + delay);
    timers.get(key)?.cancel();
    timers.delete(key);
    addAfter(key, delay);
  };
  return {
    add,
    addAfter,
    retryLater: (key) => {
      const count = (failures.get(key) ?? 0) + 1;
      failures.set(key, count);
      const delay = backoffDelay(count, opts.backoff);
      // The retry replaces any earlier timer: an event does not cut the backoff short.
      holdFor(key, delay);
      return delay;
    },
    waitFor: (key, delayMs) => holdFor(key, Math.max(0, delayMs)),
    forget: (key) => {
      failures.delete(key);
      notBefore.delete(key);
    },
    failures: (key) => failures.get(key) ?? 0,
    next: () => {
      if (stopped) return Promise.resolve(undefined);
      const key = queue.shift();
      if (key === undefined) return new Promise((resolve) => waiters.push(resolve));
      dirty.delete(key);
      processing.add(key);
      return Promise.resolve(key);
    },
    done: (key) => {
      processing.delete(key);
      if (!dirty.has(key) || stopped) return;
      // Added while a failing run was in hand: the pending retry runs it, not this event.
      if (backoffLeft(key) > 0) dirty.delete(key);
      else push(key);
    },
    shutDown: () => {
      stopped = true;
      notBefore.clear();
      for (const timer of timers.values()) timer.cancel();
      timers.clear();
      queue.length = 0;
      for (const waiter of waiters.splice(0)) waiter(undefined);
    },
    get length() {
      return queue.length;
    },
    get isShutDown() {
      return stopped;
    },
  };
}
