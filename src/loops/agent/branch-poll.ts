// The trigger that makes an agent on a remote repository notice a new commit of its cluster
// branch within about one interval: every `intervalMs` it asks the remote where the branch is
// (`probe`: one small protocol v2 ls-refs, remote-hub-repo.ts) and says "look again" when the
// answer differs from the last one. The first answer only sets the baseline: the loop's first
// pass reads the branch anyway. Only a moved branch costs a fetch; a poll costs one request
// whose answer names that one branch. A failing probe is not the loop's problem (the pass's
// refresh reports Git outages): the poll waits twice as long each time, up to `maxBackoffMs`,
// so an unreachable host is not asked every second, and goes back to the interval once it answers.
// The interval may change while it runs (the doorbell connected: the slow safety poll; gone:
// the normal one again): `changes` says when, and the wait in hand is measured again from the
// last probe, so falling back to the fast poll does not sit out a long safety interval.
//
// A probe refused for the host's rate limit (rate-limit-wait.ts) waits as long as the host asked
// instead: not a failure, and the probe of a closed gate sends nothing anyway.
import type { CancelTimer, Clock } from '../runtime/clock.js';
import type { Trigger } from '../runtime/trigger.js';
import { rateLimitWait } from '../runtime/rate-limit-wait.js';

export interface BranchPollOptions {
  clock: Clock;
  /** The interval, or how to read it now (it may change: see `changes`). */
  intervalMs: number | (() => number);
  /** Calls its listener whenever the interval changed; returns how to stop. */
  changes?: (listener: () => void) => () => void;
  /** Where the branch points now (null: not there); throws when the remote cannot be asked. */
  probe: () => Promise<string | null>;
  /** Longest wait after failures (default 30 s). */
  maxBackoffMs?: number;
  /** What the trigger is called in the log. */
  name?: string;
  /**
   * The first probe this long after the start instead of at once (an agent with a doorbell: a
   * random moment within its safety poll, so a fleet started together does not poll together).
   * An interval that becomes shorter meanwhile (the doorbell went down) shortens it.
   */
  firstAfterMs?: number;
}

/** Returns a trigger that fires when the probed branch moves. */
export function branchPoll(opts: BranchPollOptions): Trigger {
  const maxBackoffMs = opts.maxBackoffMs ?? 30_000;
  const interval = typeof opts.intervalMs === 'number' ? () => opts.intervalMs as number : opts.intervalMs;
  let running = false;
  let cancel: CancelTimer | undefined;
  let inFlight: Promise<void> | undefined;
  let seen: string | null | undefined;
  let failing = false;
  let firstPending = opts.firstAfterMs !== undefined;
  let delayMs = opts.firstAfterMs ?? interval();
  let lastProbeAt = opts.clock.now();
  let unsubscribe: () => void = () => undefined;
  return {
    name: opts.name ?? `branch poll every ${interval()} ms`,
    start: (notify) => {
      running = true;
      const schedule = (): void => {
        if (!running) return;
        cancel = opts.clock.setTimer(
          () => {
            cancel = undefined;
            inFlight = poll(notify).finally(() => {
              inFlight = undefined;
              schedule();
            });
          },
          delayMs - (opts.clock.now() - lastProbeAt),
        );
      };
      unsubscribe =
        opts.changes?.(() => {
          if (failing) return;
          delayMs = firstPending ? Math.min(opts.firstAfterMs!, interval()) : interval();
          // Only a wait in hand is measured again; a probe in flight schedules the next itself.
          if (cancel === undefined) return;
          cancel();
          schedule();
        }) ?? unsubscribe;
      const poll = async (notify: (reason: string) => void): Promise<void> => {
        let now: string | null;
        firstPending = false;
        lastProbeAt = opts.clock.now();
        try {
          now = await opts.probe();
        } catch (error) {
          failing = true;
          const wait = rateLimitWait(error);
          delayMs =
            wait === undefined
              ? Math.min(delayMs * 2, Math.max(maxBackoffMs, interval()))
              : Math.max(interval(), wait);
          return;
        } finally {
          lastProbeAt = opts.clock.now();
        }
        failing = false;
        delayMs = interval();
        const before = seen;
        seen = now;
        if (running && before !== undefined && before !== now)
          notify(`branch moved to ${now === null ? 'nothing' : now.slice(0, 12)}`);
      };
      // The baseline right away, so a commit pushed during the first pass is noticed (with a
      // doorbell, whose answers notice it, the first probe may wait: firstAfterMs).
      if (firstPending) return schedule();
      inFlight = poll(notify).finally(() => {
        inFlight = undefined;
        schedule();
      });
    },
    stop: async () => {
      running = false;
      unsubscribe();
      cancel?.();
      await inFlight;
    },
  };
}
