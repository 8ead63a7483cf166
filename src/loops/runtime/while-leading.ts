// A loop that runs only while its process leads (docs/production.md#leader-election): standing
// by until the leadership is acquired, running the loop, and when the lease is lost, stopping
// the loop and standing by again. The loop is handed an AbortSignal of its term, aborted the
// moment the loss is noticed: the pass in hand stops at its next request or write (the agent's
// pass checks it; the hub's writes check isLeading() first: assertLeading). A clean stop
// releases the lease so a standby takes over at once, and aborts nothing: the pass in hand
// finishes.
import { GitfleetError } from '../../core/model/gitfleet-error.js';
import type { Leadership } from './leadership.js';
import type { Logger } from './logger.js';
import type { Readiness } from './readiness.js';

/** A write was refused because this process no longer leads. */
export class NotLeading extends GitfleetError<'NotLeading'> {
  constructor(message: string) {
    super(message, { code: 'NotLeading' });
  }
}

/** Throws NotLeading (naming `what` would have been written) when the process does not lead now. */
export function assertLeading(leadership: Leadership, who: string, what: string): void {
  if (!leadership.isLeading())
    throw new NotLeading(`${who}: no longer leads (its lease was lost or its renewal is overdue): ${what}`);
}

export interface WhileLeadingOptions {
  leadership: Leadership;
  /** Told of every change of leadership (an election only). */
  readiness?: Readiness;
  log: Logger;
  /** Resolves when the process must stop. */
  stop: Promise<void>;
  /** Aborted when the process must stop (ends a wait for the lease). */
  signal: AbortSignal;
}

/**
 * Runs `loop` each time the process leads, until `stop`; `loop` must return once its `stop`
 * resolves. `lost` is aborted when this term's leadership is lost (never on a clean stop).
 */
export async function whileLeading(
  opts: WhileLeadingOptions,
  loop: (stop: Promise<void>, lost: AbortSignal) => Promise<void>,
): Promise<void> {
  const { leadership } = opts;
  let stopped = false;
  void opts.stop.then(() => (stopped = true));
  let onLost: () => void = () => undefined;
  leadership.onLost(() => onLost());
  try {
    while (!stopped) {
      if (leadership.elected) {
        opts.readiness?.setLeading(false);
        opts.log.info('standing by until this replica holds the lease');
      }
      if (!(await leadership.acquire(opts.signal))) break;
      if (stopped) break;
      const term = new AbortController();
      const lost = new Promise<void>((resolve) => {
        onLost = () => {
          term.abort();
          resolve();
        };
      });
      if (leadership.elected) {
        opts.readiness?.setLeading(true);
        opts.log.info('leading: running the loop');
      }
      await loop(Promise.race([opts.stop, lost]), term.signal);
      onLost = () => undefined;
    }
  } finally {
    await leadership.release();
  }
}
