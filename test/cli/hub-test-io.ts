// Test support for the hub's loop under runHub: a leadership the test scripts in place of the
// Lease election, and an Io whose output the test reads as it comes.
import type { Io } from '../../src/cli/io.js';
import type { Leadership } from '../../src/loops/runtime/leadership.js';

/** A leadership the test drives: it leads when `grant` is called, loses when `lose` is. */
export function scriptedLeadership() {
  let leading = false;
  let grant: () => void = () => undefined;
  const lost: (() => void)[] = [];
  const calls = { acquire: 0, release: 0 };
  const leadership: Leadership = {
    elected: true,
    acquire: (signal) => {
      calls.acquire++;
      return new Promise<boolean>((resolve) => {
        grant = () => {
          leading = true;
          resolve(true);
        };
        signal.addEventListener('abort', () => resolve(false), { once: true });
      });
    },
    isLeading: () => leading,
    onLost: (listener) => void lost.push(listener),
    release: async () => {
      calls.release++;
      leading = false;
    },
  };
  return {
    leadership,
    calls,
    grant: () => grant(),
    overdue: () => (leading = false),
    lose: () => {
      leading = false;
      for (const listener of lost) listener();
    },
  };
}

/** An Io whose output the test reads as it comes, interrupted when the test says so. */
export function liveIo(): Io & { text: () => string; interrupt: () => void } {
  const lines: string[] = [];
  let interrupt!: () => void;
  const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
  return {
    out: (t) => lines.push(t),
    err: (t) => lines.push(t),
    untilInterrupted: () => interrupted,
    text: () => lines.join('\n'),
    interrupt: () => interrupt(),
  };
}
