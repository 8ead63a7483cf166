// The loops' only view of time: passed in, so tests drive it with a fake and nothing deep
// inside a loop reads the system clock.

/** Cancels a scheduled callback; calling it after the callback ran, or twice, does nothing. */
export type CancelTimer = () => void;

/** Wall-clock milliseconds and one-shot timers. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once after `delayMs`; returns how to cancel it. */
  setTimer(callback: () => void, delayMs: number): CancelTimer;
}

/** Returns the process's clock; its timers do not keep the process alive on their own. */
export function systemClock(): Clock {
  return {
    now: () => Date.now(),
    setTimer: (callback, delayMs) => {
      const handle = setTimeout(callback, Math.max(0, delayMs));
      handle.unref();
      return () => clearTimeout(handle);
    },
  };
}
