// The trigger that makes an agent on a remote repository notice a new commit of its cluster
// branch within about one interval: every `intervalMs` it asks the remote where the branch is
// (`probe`: one small protocol v2 ls-refs, remote-hub-repo.ts) and says "look again" when the
// answer differs from the last one. The first answer only sets the baseline: the loop's first
// pass reads the branch anyway. Only a moved branch costs a fetch; a poll costs one request
// whose answer names that one branch. A failing probe is not the loop's problem (the pass's
// refresh reports Git outages): the poll waits twice as long each time, up to `maxBackoffMs`,
// so an unreachable host is not asked every second, and goes back to the interval once it answers.
// A probe refused for the host's rate limit (rate-limit-wait.ts) waits as long as the host asked
// instead: not a failure, and the probe of a closed gate sends nothing anyway.
import type { CancelTimer, Clock } from '../runtime/clock.js';
import type { Trigger } from '../runtime/trigger.js';
import { rateLimitWait } from '../runtime/rate-limit-wait.js';

export interface BranchPollOptions {
  clock: Clock;
  intervalMs: number;
  /** Where the branch points now (null: not there); throws when the remote cannot be asked. */
  probe: () => Promise<string | null>;
  /** Longest wait after failures (default 30 s). */
  maxBackoffMs?: number;
  /** What the trigger is called in the log. */
  name?: string;
}

/** Returns a trigger that fires when the probed branch moves. */
export function branchPoll(opts: BranchPollOptions): Trigger {
  const maxBackoffMs = opts.maxBackoffMs ?? 30_000;
  let running = false;
  let cancel: CancelTimer | undefined;
  let inFlight: Promise<void> | undefined;
  let seen: string | null | undefined;
  let delayMs = opts.intervalMs;
  return {
    name: opts.name ?? `branch poll every ${opts.intervalMs} ms`,
    start: (notify) => {
      running = true;
      const schedule = (): void => {
        if (!running) return;
        cancel = opts.clock.setTimer(() => {
          inFlight = poll(notify).finally(() => {
            inFlight = undefined;
            schedule();
          });
        }, delayMs);
      };
      const poll = async (notify: (reason: string) => void): Promise<void> => {
        let now: string | null;
        try {
          now = await opts.probe();
        } catch (error) {
          const wait = rateLimitWait(error);
          delayMs =
            wait === undefined ? Math.min(delayMs * 2, maxBackoffMs) : Math.max(opts.intervalMs, wait);
          return;
        }
        delayMs = opts.intervalMs;
        const before = seen;
        seen = now;
        if (running && before !== undefined && before !== now)
          notify(`branch moved to ${now === null ? 'nothing' : now.slice(0, 12)}`);
      };
      // The baseline right away, so a commit pushed during the first pass is noticed.
      inFlight = poll(notify).finally(() => {
        inFlight = undefined;
        schedule();
      });
    },
    stop: async () => {
      running = false;
      cancel?.();
      await inFlight;
    },
  };
}
