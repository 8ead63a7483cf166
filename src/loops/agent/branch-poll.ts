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
//
// A move the agent's mirror already holds (`held`) is no news: the doorbell's ring or a pass
// fetched it since the last probe. Saying "look again" for it would open the refresh gate for a
// refresh that finds the branch where it is, and such a refresh also reads the fleet
// repository's bindings branch (agent-branch-repo.ts): after a source push every agent's next
// safety poll cost the fleet repository an ls-refs and a fetch, about 2,000 reads at 1,000
// clusters (docs/git-budget.md#render-repositories).
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
  /** The head the agent's mirror holds now (null: none): a probe answering it says nothing moved. */
  held?: () => Promise<string | null>;
  /** Told the answer of a probe that says the branch moved, just before it says so. */
  onMove?: (answer: string | null) => void;
  /**
   * With `held`: a head the host answers and the mirror does not hold is a move even when the
   * host answered it before (the doorbell may have named a head that is not on the branch, and
   * the mirror holds that one; a refresh that failed left the mirror behind). Answers that are
   * no head (`isHead` false: the pair a tombstoned branch answers) move only when they change.
   */
  untilHeld?: { isHead: (answer: string | null) => boolean };
  /**
   * Whether the agent has started reading Git (the hub's pacing let its first fetch go): a probe
   * due before sends nothing and waits another interval. A fleet started together at 1,000
   * clusters starts over about 10 minutes, and each agent's first safety poll falls within its
   * first 5; probing the fleet repository before the agent's own start cost about 0.8 reads a
   * start there (docs/git-budget.md#pacing). Absent: always.
   */
  started?: () => boolean;
}

/** Returns a trigger that fires when the probed branch moves. */
export function branchPoll(opts: BranchPollOptions): Trigger {
  const maxBackoffMs = opts.maxBackoffMs ?? 30_000;
  const interval = typeof opts.intervalMs === 'number' ? () => opts.intervalMs as number : opts.intervalMs;
  const polling = new Polling(opts, interval, maxBackoffMs);
  let unsubscribe: () => void = () => undefined;
  return {
    name: opts.name ?? `branch poll every ${interval()} ms`,
    start: (notify) => {
      polling.running = true;
      unsubscribe = opts.changes?.(() => polling.intervalChanged(notify)) ?? unsubscribe;
      // The baseline right away, so a commit pushed during the first pass is noticed (with a
      // doorbell, whose answers notice it, the first probe may wait: firstAfterMs).
      if (polling.firstPending) return polling.schedule(notify);
      polling.inFlight = polling.poll(notify).finally(() => {
        polling.inFlight = undefined;
        polling.schedule(notify);
      });
    },
    stop: async () => {
      polling.running = false;
      unsubscribe();
      polling.cancel?.();
      await polling.inFlight;
    },
  };
}

// One branch poll's state: the wait in hand, the probe in flight, the last answer and the wait
// the next probe is due after.
class Polling {
  running = false;
  cancel: CancelTimer | undefined;
  inFlight: Promise<void> | undefined;
  seen: string | null | undefined;
  failing = false;
  firstPending: boolean;
  delayMs: number;
  lastProbeAt: number;

  constructor(
    private readonly opts: BranchPollOptions,
    private readonly interval: () => number,
    private readonly maxBackoffMs: number,
  ) {
    this.firstPending = opts.firstAfterMs !== undefined;
    this.delayMs = opts.firstAfterMs ?? interval();
    this.lastProbeAt = opts.clock.now();
  }

  // The next probe, the wait measured from the last one.
  schedule(notify: (reason: string) => void): void {
    if (!this.running) return;
    this.cancel = this.opts.clock.setTimer(
      () => {
        this.cancel = undefined;
        this.inFlight = this.poll(notify).finally(() => {
          this.inFlight = undefined;
          this.schedule(notify);
        });
      },
      this.delayMs - (this.opts.clock.now() - this.lastProbeAt),
    );
  }

  // The interval changed: the wait in hand is measured again.
  intervalChanged(notify: (reason: string) => void): void {
    if (this.failing) return;
    this.delayMs = this.firstPending ? Math.min(this.opts.firstAfterMs!, this.interval()) : this.interval();
    // Only a wait in hand is measured again; a probe in flight schedules the next itself.
    if (this.cancel === undefined) return;
    this.cancel();
    this.schedule(notify);
  }

  // One probe: a moved branch says so, a failure waits longer.
  async poll(notify: (reason: string) => void): Promise<void> {
    let now: string | null;
    this.firstPending = false;
    this.lastProbeAt = this.opts.clock.now();
    if (this.opts.started?.() === false) {
      this.delayMs = this.interval();
      return;
    }
    try {
      now = await this.opts.probe();
    } catch (error) {
      this.failing = true;
      const wait = rateLimitWait(error);
      this.delayMs =
        wait === undefined
          ? Math.min(this.delayMs * 2, Math.max(this.maxBackoffMs, this.interval()))
          : Math.max(this.interval(), wait);
      return;
    } finally {
      this.lastProbeAt = this.opts.clock.now();
    }
    this.failing = false;
    this.delayMs = this.interval();
    const before = this.seen;
    this.seen = now;
    // The first answer is only the baseline, unless it can be held against the mirror (untilHeld).
    const baseline = before === undefined && this.opts.untilHeld === undefined;
    if (!this.running || baseline || !(await this.moved(before, now))) return;
    // Stopped while the mirror was read: no notify follows a stop.
    if (!this.running) return;
    this.opts.onMove?.(now);
    notify(`branch moved to ${now === null ? 'nothing' : now.slice(0, 12)}`);
  }

  // Whether the answer is news: it changed and the mirror does not hold it already; with
  // untilHeld, a head the mirror does not hold is news however often it was answered.
  private async moved(before: string | null | undefined, now: string | null): Promise<boolean> {
    const diverged = this.opts.untilHeld?.isHead(now) === true;
    if (before === now && !diverged) return false;
    return (await this.held()) !== now;
  }

  // What the mirror holds (a mirror that cannot be read, or no `held`, holds nothing).
  private async held(): Promise<string | null | undefined> {
    if (this.opts.held === undefined) return undefined;
    try {
      return await this.opts.held();
    } catch {
      return undefined;
    }
  }
}
