// The hub's pacing, as an agent with a doorbell follows it (docs/git-budget.md#pacing): at its
// start the agent asks the doorbell for its pacing and makes its first fetch only when the hub
// says (`startInMs`: the hub gives starting agents a few starts a second, as the read budget
// allows), or once the hub proved unreachable (then it starts at once, as without a doorbell).
// A start timer that fires late (a busy process, many agents starting in it, fires every timer
// it held at once) waits a random part of how late it is more, so the starts it held do not all
// read the fleet repository in the same second (docs/git-budget.md#pacing).
//
// The answer carries the push slot of the agent's status repository (push-pacer.ts pushes in
// it); it is asked again every `refreshMs`, since slots move as clusters join or leave.
//
// As a trigger of the agent loop it says "look again" when the slot changed, so a status
// waiting for the pacer is rescheduled by the new slot.
import type { PushSlot } from '../../core/budget/plan-pacing.js';
import type { PacingAnswer } from '../../adapters/http/doorbell-request.js';
import type { CancelTimer, Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { Trigger } from '../runtime/trigger.js';

export interface HubPacingOptions {
  /** One pacing request (adapters/http/doorbell-request.ts askPacing); `starting` at the first. */
  ask: (signal: AbortSignal, starting: boolean) => Promise<PacingAnswer>;
  clock: Clock;
  log: Logger;
  /** How often the pacing is asked again (default 10 min). */
  refreshMs?: number;
  /** The wait before asking again after a failure (default 30 s). */
  retryMs?: number;
  /** Longest a start waits for a hub that does not answer yet (503: not leading or not ready; no answer; default 2 min). */
  maxStartWaitMs?: number;
  /** Uniform in [0, 1): spreads a start whose timer fired late; absent, a late start goes at once. */
  random?: () => number;
}

/** How late a start timer may fire before the start is spread (a turn is a fraction of a second). */
const lateStartMs = 1000;
/** How many times a start is spread again when its new timer is late too. */
const maxSpreads = 2;

/** The hub's pacing of one agent. */
export interface HubPacing extends Trigger {
  /** The push slot the hub gave, when it gave one. */
  slot(): PushSlot | undefined;
  /** Resolves once the agent may start fetching: the hub answered, failed to, or the pacing stopped. */
  started(): Promise<void>;
}

/** Returns the pacing client; it asks once started. */
export function hubPacing(opts: HubPacingOptions): HubPacing {
  const pacing = new Pacing(opts);
  return {
    name: 'the hub’s pacing',
    slot: () => pacing.slot,
    started: () => pacing.started,
    start: (notify) => {
      pacing.running = true;
      pacing.abort = new AbortController();
      pacing.loop(notify);
    },
    stop: async () => {
      pacing.running = false;
      pacing.cancel();
      pacing.cancelStart();
      pacing.abort.abort();
      pacing.start();
      await pacing.inFlight;
    },
  };
}

// One agent's pacing: the slot the hub gave, the start it allowed, the request in flight.
class Pacing {
  readonly refreshMs: number;
  readonly retryMs: number;
  readonly maxStartWaitMs: number;
  readonly beganAt: number;
  slot: PushSlot | undefined;
  running = false;
  abort = new AbortController();
  cancel: CancelTimer = () => undefined;
  inFlight: Promise<void> = Promise.resolve();
  start!: () => void;
  readonly started: Promise<void>;
  startAsked = false;
  cancelStart: CancelTimer = () => undefined;
  said = '';

  constructor(private readonly opts: HubPacingOptions) {
    this.refreshMs = opts.refreshMs ?? 600_000;
    this.retryMs = opts.retryMs ?? 30_000;
    this.maxStartWaitMs = opts.maxStartWaitMs ?? 120_000;
    this.beganAt = opts.clock.now();
    this.started = new Promise<void>((resolve) => (this.start = resolve));
  }

  // A line of the log, unless it is the last one said again.
  tell(line: string, warn = false): void {
    if (line === this.said) return;
    this.said = line;
    if (warn) this.opts.log.warn(line);
    else this.opts.log.info(line);
  }

  // One request, and when the next one goes.
  async askOnce(notify: (reason: string) => void): Promise<number> {
    const starting = !this.startAsked;
    const answer = await this.opts.ask(this.abort.signal, starting);
    // A hub that answers "not yet" (503), or not in time (a busy hub, a hub starting), is waited
    // for a while before starting unpaced: a fleet started together must not all give up at once.
    // One that answers it has no pacing (204: no budget to pace by; another status: a hub without
    // pacing) is not: the agent starts at once.
    const notYet = answer.type === 'unavailable' && (answer.status === 503 || answer.status === undefined);
    const later = notYet ? (answer.retryAfterMs ?? 5000) : undefined;
    if (starting && later !== undefined && this.opts.clock.now() - this.beganAt < this.maxStartWaitMs)
      return later;
    // A start the hub does not delay begins now, not at a timer's next tick.
    if (answer.type !== 'pacing' || !starting || answer.startInMs <= 0) this.start();
    else this.startAt(this.opts.clock.now() + answer.startInMs);
    this.startAsked = true;
    if (answer.type !== 'pacing') {
      const why = answer.type === 'unauthorized' ? 'refused the token' : answer.message;
      this.tell(`pacing: the hub ${why}; the agent paces its pushes by --push-spread meanwhile`, true);
      return this.retryMs;
    }
    const next = answer.pushSlot ?? undefined;
    const changed = JSON.stringify(next) !== JSON.stringify(this.slot);
    this.slot = next;
    this.tell(
      next === undefined
        ? 'pacing: the hub paces no pushes'
        : `pacing: push slot every ${Math.round(next.periodMs / 1000)} s at +${Math.round(next.offsetMs / 1000)} s`,
    );
    if (changed && this.running) notify('pacing: a new push slot');
    return this.refreshMs;
  }

  // Starts at `due`, or, fired a second or more late, a random part of that lateness later.
  startAt(due: number, spreads = 0): void {
    const { clock, random } = this.opts;
    this.cancelStart = clock.setTimer(
      () => {
        const late = clock.now() - due;
        if (random === undefined || late < lateStartMs || spreads >= maxSpreads) return this.start();
        this.startAt(clock.now() + Math.floor(random() * late), spreads + 1);
      },
      Math.max(0, due - clock.now()),
    );
  }

  // Asks, then asks again when the answer says.
  loop(notify: (reason: string) => void): void {
    this.inFlight = this.askOnce(notify).then((nextMs) => {
      if (this.running) this.cancel = this.opts.clock.setTimer(() => this.loop(notify), nextMs);
    });
  }
}
