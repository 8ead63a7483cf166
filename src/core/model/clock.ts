// The loops' only view of time, as a port: passed in, so tests drive it with a fake and nothing
// deep inside a loop reads the system clock. The process's clock is loops/runtime/clock.ts;
// adapters that wait (the Lease election) take the same type.

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
