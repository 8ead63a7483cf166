// A clock for loop tests: time moves only when the test says so, and timers fire in order.
import type { Clock } from '../../../src/loops/runtime/clock.js';

export interface FakeClock extends Clock {
  /** Moves time forward, firing every timer due on the way, in order. */
  advance(ms: number): void;
  /** The delays of the timers still pending, from now. */
  pending(): number[];
}

/** Returns a fake clock starting at `start` milliseconds. */
export function fakeClock(start = 1_700_000_000_000): FakeClock {
  let now = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimer: (callback, delayMs) => {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, delayMs), callback });
      return () => void timers.delete(id);
    },
    advance: (ms) => {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= end)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0]);
        const first = due[0];
        if (!first) break;
        timers.delete(first[0]);
        now = first[1].at;
        first[1].callback();
      }
      now = end;
    },
    pending: () => [...timers.values()].map((t) => t.at - now).sort((a, b) => a - b),
  };
}
