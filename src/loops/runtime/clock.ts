// The loops' only view of time: passed in, so tests drive it with a fake and nothing deep
// inside a loop reads the system clock.

/** Cancels a scheduled callback; calling it after the callback ran, or twice, does nothing. */
export type CancelTimer = () => void;

export interface TimerOptions {
  /**
   * Keep the process alive until the timer fires: a wait inside work in hand (a pass polling
   * the cluster), not a loop's schedule, which must never hold a process that is done.
   */
  holdProcess?: boolean;
}

/** Wall-clock milliseconds and one-shot timers. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once after `delayMs`; returns how to cancel it. */
  setTimer(callback: () => void, delayMs: number, opts?: TimerOptions): CancelTimer;
}

/** Returns the process's clock; its timers do not keep the process alive on their own, unless asked to. */
export function systemClock(): Clock {
  return {
    now: () => Date.now(),
    setTimer: (callback, delayMs, opts = {}) => {
      const handle = setTimeout(callback, Math.max(0, delayMs));
      if (!opts.holdProcess) handle.unref();
      return () => clearTimeout(handle);
    },
  };
}
