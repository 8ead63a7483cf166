// The doorbell's pacing of fetches (core/budget/plan-pacing.ts ringsPerSecond): one timeline of
// turns, `1000 / perSecond` ms apart, shared by the rings (an answer that sends an agent to
// fetch its moved branch) and the starts (a starting agent's first fetch). A ring takes the
// next free turn and fires then; a cluster already waiting for its turn keeps it (the newest
// callback fires, once), so a branch that moves twice while waiting costs one fetch. A start
// is a turn reserved for the agent to take itself: the answer says how long to wait.

/** Cancels a timer (the loops' clock's shape; adapters do not import loops). */
type CancelTimer = () => void;

export interface RingPacerOptions {
  /** Turns a second. */
  perSecond: number;
  now: () => number;
  setTimer: (callback: () => void, delayMs: number) => CancelTimer;
}

/** The timeline of turns. */
export interface RingPacer {
  /** Calls `fire` at the cluster's turn (the one it waits for already, else the next free one). */
  ring(cluster: string, fire: () => void): void;
  /** Reserves the next free turn, `turns` long (default 1); returns how long until it, in milliseconds. */
  reserve(turns?: number): number;
  /** Rings waiting for their turn. */
  waiting(): number;
  /** Fires nothing more. */
  close(): void;
}

/** Returns a timeline whose first turn is now. */
export function ringPacer(opts: RingPacerOptions): RingPacer {
  const gapMs = 1000 / Math.max(opts.perSecond, 1e-6);
  let nextFree = -Infinity;
  const pending = new Map<string, { fire: () => void; cancel: CancelTimer }>();
  const take = (turns = 1): number => {
    const now = opts.now();
    const at = Math.max(now, nextFree);
    nextFree = at + gapMs * turns;
    return at - now;
  };
  return {
    ring: (cluster, fire) => {
      const known = pending.get(cluster);
      if (known) return void (known.fire = fire);
      const entry = { fire, cancel: (() => undefined) as CancelTimer };
      pending.set(cluster, entry);
      entry.cancel = opts.setTimer(() => {
        pending.delete(cluster);
        entry.fire();
      }, take());
    },
    reserve: (turns) => take(turns),
    waiting: () => pending.size,
    close: () => {
      for (const entry of pending.values()) entry.cancel();
      pending.clear();
    },
  };
}
