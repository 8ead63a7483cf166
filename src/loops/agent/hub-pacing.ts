// The hub's pacing, as an agent with a doorbell follows it (docs/git-budget.md#pacing): at its
// start the agent asks the doorbell for its pacing and makes its first fetch only when the hub
// says (`startInMs`: the hub gives starting agents a few starts a second, as the read budget
// allows), or once the hub proved unreachable (then it starts at once, as without a doorbell).
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
}

/** The hub's pacing of one agent. */
export interface HubPacing extends Trigger {
  /** The push slot the hub gave, when it gave one. */
  slot(): PushSlot | undefined;
  /** Resolves once the agent may start fetching: the hub answered, failed to, or the pacing stopped. */
  started(): Promise<void>;
}

/** Returns the pacing client; it asks once started. */
export function hubPacing(opts: HubPacingOptions): HubPacing {
  const refreshMs = opts.refreshMs ?? 600_000;
  const retryMs = opts.retryMs ?? 30_000;
  const maxStartWaitMs = opts.maxStartWaitMs ?? 120_000;
  const beganAt = opts.clock.now();
  let slot: PushSlot | undefined;
  let running = false;
  let abort = new AbortController();
  let cancel: CancelTimer = () => undefined;
  let inFlight: Promise<void> = Promise.resolve();
  let start!: () => void;
  const started = new Promise<void>((resolve) => (start = resolve));
  let startAsked = false;
  let cancelStart: CancelTimer = () => undefined;
  let said = '';
  const tell = (line: string, warn = false): void => {
    if (line === said) return;
    said = line;
    if (warn) opts.log.warn(line);
    else opts.log.info(line);
  };
  const askOnce = async (notify: (reason: string) => void): Promise<number> => {
    const starting = !startAsked;
    const answer = await opts.ask(abort.signal, starting);
    // A hub that answers "not yet" (503), or not in time (a busy hub, a hub starting), is waited
    // for a while before starting unpaced: a fleet started together must not all give up at once.
    // One that answers it has no pacing (204: no budget to pace by; another status: a hub without
    // pacing) is not: the agent starts at once.
    const notYet = answer.type === 'unavailable' && (answer.status === 503 || answer.status === undefined);
    const later = notYet ? (answer.retryAfterMs ?? 5000) : undefined;
    if (starting && later !== undefined && opts.clock.now() - beganAt < maxStartWaitMs) return later;
    // A start the hub does not delay begins now, not at a timer's next tick.
    if (answer.type !== 'pacing' || !starting || answer.startInMs <= 0) start();
    else cancelStart = opts.clock.setTimer(start, answer.startInMs);
    startAsked = true;
    if (answer.type !== 'pacing') {
      const why = answer.type === 'unauthorized' ? 'refused the token' : answer.message;
      tell(`pacing: the hub ${why}; the agent paces its pushes by --push-spread meanwhile`, true);
      return retryMs;
    }
    const next = answer.pushSlot ?? undefined;
    const changed = JSON.stringify(next) !== JSON.stringify(slot);
    slot = next;
    tell(
      next === undefined
        ? 'pacing: the hub paces no pushes'
        : `pacing: push slot every ${Math.round(next.periodMs / 1000)} s at +${Math.round(next.offsetMs / 1000)} s`,
    );
    if (changed && running) notify('pacing: a new push slot');
    return refreshMs;
  };
  const loop = (notify: (reason: string) => void): void => {
    inFlight = askOnce(notify).then((nextMs) => {
      if (running) cancel = opts.clock.setTimer(() => loop(notify), nextMs);
    });
  };
  return {
    name: 'the hub’s pacing',
    slot: () => slot,
    started: () => started,
    start: (notify) => {
      running = true;
      abort = new AbortController();
      loop(notify);
    },
    stop: async () => {
      running = false;
      cancel();
      cancelStart();
      abort.abort();
      start();
      await inFlight;
    },
  };
}
