// Waiting on the cluster by asking again: the agent polls for a recreated object to be gone and
// for new CRDs to be Established. Time comes from the loop's clock, so a test drives the wait.
import type { Clock } from '../runtime/clock.js';

/** Asks `check` until it says done or `timeoutMs` passed, `intervalMs` apart; returns whether it said done. */
export async function pollUntil(opts: {
  clock: Clock;
  timeoutMs: number;
  intervalMs: number;
  check: () => Promise<boolean>;
}): Promise<boolean> {
  const deadline = opts.clock.now() + opts.timeoutMs;
  for (;;) {
    if (await opts.check()) return true;
    if (opts.clock.now() >= deadline) return false;
    // The pass is waiting on this: the process must not end meanwhile (agent --once).
    await new Promise<void>((resolve) =>
      opts.clock.setTimer(resolve, opts.intervalMs, { holdProcess: true }),
    );
  }
}
