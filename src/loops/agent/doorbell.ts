// The agent's doorbell (docs/git-budget.md#doorbell): one wait held at the hub at a time
// (adapters/http/doorbell-request.ts), which answers when the cluster branch moved; an answer
// with a new head says "look again" once, as the branch poll does (and names the head, which the
// refresh may fetch alone: adapters/remote/fetch-known-head.ts), and the next wait asks
// past that head, so a doorbell that keeps naming a head the refresh does not find makes no
// refresh storm (the slow safety poll finds the truth). Beacons go every `beaconIntervalMs`
// (not while the token is refused): the hub's cluster monitor takes them as signs of life.
//
// States, one log line per change: connecting → connected (an answer came) → down (no answer,
// an error status: back off with jitter, doubling up to `maxBackoffMs`) or refused (401: the
// token is wrong; tried again at the longest back-off). The agent polls Git at its normal
// `--branch-poll` whenever the doorbell is not connected (connected() is what the poll asks).
import type { DoorbellAnswer } from '../../adapters/http/doorbell-request.js';
import { backoffDelay } from '../runtime/backoff.js';
import type { CancelTimer, Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { Trigger } from '../runtime/trigger.js';

export interface DoorbellOptions {
  /** Where the doorbell is, for the log (never with a token). */
  url: string;
  /** One held wait past `after` (null: the agent has no branch). */
  wait: (after: string | null, signal: AbortSignal) => Promise<DoorbellAnswer>;
  beacon: (signal: AbortSignal) => Promise<DoorbellAnswer>;
  /** The head of the cluster branch the agent has now (its first `after`). */
  localHead: () => Promise<string | null>;
  clock: Clock;
  /** Uniform in [0, 1), for the back-off's jitter. */
  random: () => number;
  log: Logger;
  /** How often a beacon goes while connected (the heartbeat's renew interval). */
  beaconIntervalMs: number;
  /** Least time between two "moved" notifications (the branch poll's interval). */
  minGapMs: number;
  /** Told the head of each "moved" notification, just before it (the refresh may fetch it alone). */
  onHead?: (head: string) => void;
  /** Longest wait between two tries while down (default 30 s). */
  maxBackoffMs?: number;
}

export type DoorbellState = 'connecting' | 'connected' | 'down' | 'refused';

/** The doorbell: a trigger of the agent loop, and whether it is connected. */
export interface Doorbell extends Trigger {
  state(): DoorbellState;
  /** Whether the hub answered lately (a wait or a beacon within two beacon intervals). */
  connected(): boolean;
  /** Calls `listener` at every change of connected() or state(); returns how to stop. */
  onChange(listener: () => void): () => void;
}

/** Returns a doorbell that starts connecting when the loop starts it. */
export function doorbell(opts: DoorbellOptions): Doorbell {
  const listeners = new Set<() => void>();
  const conn = connectionState(opts, listeners);
  let abort = new AbortController();
  const term = { running: false, lastNotifyAt: -Infinity, signal: () => abort.signal };
  let cancelBeacon: CancelTimer = () => undefined;
  let loop: Promise<void> = Promise.resolve();
  const beat = (): void => {
    if (!term.running) return;
    // Also while down: a hub that came back holds the next wait without answering it, and the
    // beacon's answer is what says it is there. A refused token is not tried more often so.
    const send =
      conn.state() !== 'refused' ? opts.beacon(abort.signal).then(conn.answered) : Promise.resolve(false);
    void send.finally(() => {
      if (term.running) cancelBeacon = opts.clock.setTimer(beat, opts.beaconIntervalMs);
    });
  };
  return {
    name: `doorbell at ${opts.url}`,
    state: conn.state,
    connected: conn.connected,
    onChange: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    start: (notify) => {
      term.running = true;
      // Started again at each term of the agent's Lease: a new signal for the new term.
      abort = new AbortController();
      loop = waitLoop(opts, conn, term, notify).catch((error: unknown) =>
        opts.log.error(`doorbell: ${(error as Error).message}`),
      );
      cancelBeacon = opts.clock.setTimer(beat, opts.beaconIntervalMs);
    },
    stop: async () => {
      term.running = false;
      cancelBeacon();
      abort.abort();
      await loop;
      conn.reset();
    },
  };
}

/** The doorbell's connection as the hub's answers tell it: one log line per change. */
interface ConnectionState {
  state(): DoorbellState;
  connected(): boolean;
  /** How many tries failed in a row. */
  failures(): number;
  /** Takes an answer in; returns whether the hub answered (a wait or a beacon). */
  answered(answer: DoorbellAnswer): boolean;
  /** A stopped doorbell vouches for nothing: the next term starts by connecting again. */
  reset(): void;
}

function connectionState(opts: DoorbellOptions, listeners: ReadonlySet<() => void>): ConnectionState {
  let state: DoorbellState = 'connecting';
  let lastAnswerAt = -Infinity;
  let failures = 0;
  const connected = (): boolean =>
    state === 'connected' && opts.clock.now() - lastAnswerAt <= 2 * opts.beaconIntervalMs;
  const become = (next: DoorbellState, detail: string): void => {
    if (next === state) return;
    state = next;
    if (next === 'connected')
      opts.log.info(`doorbell: connected to ${opts.url}; Git is polled slowly (the safety poll)`);
    else opts.log.warn(`doorbell: ${opts.url} ${detail}; polling Git at the branch poll meanwhile`);
    // Every change: the branch poll also asks whether the doorbell went down before it connected.
    for (const l of listeners) l();
  };
  return {
    state: () => state,
    connected,
    failures: () => failures,
    answered: (answer) => {
      if (answer.type === 'moved' || answer.type === 'unchanged') {
        lastAnswerAt = opts.clock.now();
        failures = 0;
        become('connected', '');
        return true;
      }
      failures++;
      if (answer.type === 'unauthorized')
        become(
          'refused',
          "refused the token (401): check --notify-token-file against the hub's --notify-tokens",
        );
      else become('down', `is unavailable (${answer.message})`);
      return false;
    },
    reset: () => {
      const was = connected();
      state = 'connecting';
      if (was) for (const l of listeners) l();
    },
  };
}

// One term's waits, one held at a time: a new head notifies once (at most one per gap); an
// answer that is no answer backs off with jitter (a refused token at the longest back-off).
async function waitLoop(
  opts: DoorbellOptions,
  conn: ConnectionState,
  term: { running: boolean; lastNotifyAt: number; signal: () => AbortSignal },
  notify: (reason: string) => void,
): Promise<void> {
  const maxBackoffMs = opts.maxBackoffMs ?? 30_000;
  const sleep = (ms: number) => sleepUnlessAborted(opts.clock, term.signal(), ms);
  let after = await opts.localHead().catch(() => null);
  while (term.running) {
    const answer = await opts.wait(after, term.signal());
    if (!term.running) return;
    if (!conn.answered(answer)) {
      const settings = { baseMs: 1000, maxMs: maxBackoffMs, jitter: 0.5, random: opts.random };
      const backoff = answer.type === 'unauthorized' ? maxBackoffMs : backoffDelay(conn.failures(), settings);
      await sleep(Math.max(backoff, answer.type === 'unavailable' ? (answer.retryAfterMs ?? 0) : 0));
      continue;
    }
    if (answer.type !== 'moved' || answer.head === after) continue;
    after = answer.head;
    // A doorbell answering new heads at once, again and again, costs one refresh per gap.
    const wait = term.lastNotifyAt + opts.minGapMs - opts.clock.now();
    if (wait > 0) await sleep(wait);
    if (!term.running) return;
    term.lastNotifyAt = opts.clock.now();
    if (after !== null) opts.onHead?.(after);
    notify(`doorbell: branch moved to ${after === null ? 'nothing' : after.slice(0, 12)}`);
  }
}

// The abort listener goes when the sleep ends either way: one left per sleep on the term's
// long-lived signal would pile up (Node warns past ten, on stderr).
function sleepUnlessAborted(clock: Clock, signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      cancel();
      resolve();
    };
    const cancel = clock.setTimer(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}
