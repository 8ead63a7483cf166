// Sources of "look again" events for a loop: file watchers, polling, webhooks, a periodic
// resync. A trigger carries no data: the loop always reads the whole current state.
import type { CancelTimer, Clock } from './clock.js';

/** Something that tells a loop to look again. */
export interface Trigger {
  /** What it watches, for the log. */
  readonly name: string;
  /** Starts calling `notify` on every event; `reason` says what happened, for the log. */
  start(notify: (reason: string) => void): Promise<void> | void;
  /** Stops the events; no `notify` call follows once it resolves. */
  stop(): Promise<void>;
}

/** Returns a trigger that fires every `intervalMs` (a resync, so missed events heal). */
export function periodicTrigger(opts: { clock: Clock; intervalMs: number }): Trigger {
  let cancel: CancelTimer | undefined;
  let running = false;
  return {
    name: `resync every ${opts.intervalMs} ms`,
    start: (notify) => {
      running = true;
      const schedule = (): void => {
        cancel = opts.clock.setTimer(() => {
          if (!running) return;
          notify('periodic resync');
          schedule();
        }, opts.intervalMs);
      };
      schedule();
    },
    stop: () => {
      running = false;
      cancel?.();
      return Promise.resolve();
    },
  };
}
