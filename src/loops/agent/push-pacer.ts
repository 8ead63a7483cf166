// When the agent may push to its status repository (docs/git-budget.md#pacing): its status and
// its heartbeat share one pacer, so together they spend the agent's share of the repository's
// push budget and no more. A fleet that starts together, or that one source push moves as a
// whole, would otherwise push a status per cluster at once: a 429 storm on a host that takes 6
// pushes a minute.
//
//   the pacer knows            an agent may push                      told by
//   its push slot              inside its slot, once per slot          the hub's doorbell (core/budget/plan-pacing.ts)
//   no slot, a spread S > 0    first at a random moment within S of    `agent --push-spread` (the profile's)
//                              its start, then at most once per S
//   no slot, no spread         at once (the generic profile: as before)
//
// A push that may not go yet is not queued: the status pass skips its write and asks for a
// pass when the pacer opens (the newest report wins, as while rate limited), and the heartbeat
// beats then. A status that went counts as the heartbeat: the hub takes a moved status branch
// as a sign of life too (cluster-monitor-rules.ts).
import type { PushSlot } from '../../core/budget/plan-pacing.js';
import type { Clock } from '../runtime/clock.js';

/** The agent's pushes to its status repository, paced. */
export interface PushPacer {
  /** Milliseconds until a push may go; 0: now. */
  waitMs(): number;
  /** Records a push that went now (or was tried: a refused one spends its slot too). */
  pushed(): void;
  /** When the last push went (-Infinity before the first). */
  lastPushAt(): number;
  /** Whether a status waits for the pacer: the heartbeat gives it the next opening. */
  statusWaiting(): boolean;
  /** Sets whether a status waits for the pacer. */
  setStatusWaiting(waiting: boolean): void;
}

export interface PushPacerOptions {
  clock: Clock;
  /** Uniform in [0, 1): where in the spread the first push falls. */
  random: () => number;
  /** Without a slot: the first push within this long of the start, then at most one per this long (0: no pacing). */
  spreadMs: number;
  /** The slot the hub gave, when it gave one (it may change: asked at each push). */
  slot?: () => PushSlot | undefined;
}

/** Returns a pacer starting now. */
export function pushPacer(opts: PushPacerOptions): PushPacer {
  const startedAt = opts.clock.now();
  const firstAt = startedAt + Math.floor(opts.random() * opts.spreadMs);
  let last = -Infinity;
  let waiting = false;
  return {
    waitMs: () => {
      const now = opts.clock.now();
      const slot = opts.slot?.();
      if (slot !== undefined) return slotWaitMs(slot, now, last);
      if (opts.spreadMs <= 0) return 0;
      return Math.max(0, (last === -Infinity ? firstAt : last + opts.spreadMs) - now);
    },
    pushed: () => void (last = opts.clock.now()),
    lastPushAt: () => last,
    statusWaiting: () => waiting,
    setStatusWaiting: (w) => void (waiting = w),
  };
}

/**
 * Returns the wait until `now` is inside the slot and the slot is unspent: 0 inside an unspent
 * slot, else the time to the next slot's start.
 */
export function slotWaitMs(slot: PushSlot, now: number, lastPushAt: number): number {
  const period = Math.max(1, slot.periodMs);
  const phase = (((now - slot.offsetMs) % period) + period) % period;
  const slotStart = now - phase;
  if (phase < slot.widthMs && lastPushAt < slotStart) return 0;
  return period - phase;
}
