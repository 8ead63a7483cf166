// The process's clock, behind the loops' only view of time (the Clock port, core/model/clock.ts):
// passed in, so tests drive it with a fake and nothing deep inside a loop reads the system clock.

import type { Clock } from '../../core/model/clock.js';

export type { CancelTimer, Clock, TimerOptions } from '../../core/model/clock.js';

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
