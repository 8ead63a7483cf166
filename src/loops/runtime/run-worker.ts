// A worker of a work queue: takes a key, handles it, and on failure logs the error once (here,
// and nowhere below) and requeues the key with backoff. A GitfleetError marked `terminal` (retrying
// cannot fix it, e.g. a source ref that does not exist) is logged and not retried: the next
// event or resync looks again, and the same terminal error is not logged again until the key
// succeeds or fails differently. A Git host's rate limit (rate-limit-wait.ts) is no failure:
// the key waits as long as the host asked, its failures uncounted, and nothing is logged here
// (the remote adapter logs each change of the wait once, not each refused attempt).
import type { Logger } from './logger.js';
import { GitfleetError, isTerminal } from '../../core/model/gitfleet-error.js';
import type { WorkQueue } from './work-queue.js';
import { rateLimitWait } from './rate-limit-wait.js';

export interface RunWorkerOptions<K> {
  queue: WorkQueue<K>;
  handle: (key: K) => Promise<void>;
  log: Logger;
  /** How a key is named in messages. */
  describe?: (key: K) => string;
}

/** Returns when the queue shuts down, after the item in hand is done. */
export async function runWorker<K>(opts: RunWorkerOptions<K>): Promise<void> {
  const describe = opts.describe ?? String;
  const lastTerminal = new Map<K, string>();
  for (;;) {
    const key = await opts.queue.next();
    if (key === undefined) return;
    try {
      await opts.handle(key);
      opts.queue.forget(key);
      lastTerminal.delete(key);
    } catch (error) {
      const message = named(describe(key), error instanceof Error ? error.message : String(error));
      // The error's code, for a log collector (`--log-format json`); the text format leaves it out.
      const fields = error instanceof GitfleetError ? { code: error.code } : {};
      const wait = rateLimitWait(error);
      if (wait !== undefined && !opts.queue.isShutDown) {
        lastTerminal.delete(key);
        opts.queue.waitFor(key, wait);
      } else if (opts.queue.isShutDown) {
        opts.log.error(`${message} (stopping; not retried)`, fields);
      } else if (isTerminal(error)) {
        if (lastTerminal.get(key) !== message) opts.log.error(message, fields);
        lastTerminal.set(key, message);
      } else {
        lastTerminal.delete(key);
        const delay = opts.queue.retryLater(key);
        const attempt = opts.queue.failures(key);
        opts.log.error(`${message} (failure ${attempt}; retrying in ${formatDelay(delay)})`, fields);
      }
    } finally {
      opts.queue.done(key);
    }
  }
}

// The message under the key's name, once: an error that names its subject already (`agent
// member1: lost its Lease…`) is not named twice.
function named(subject: string, message: string): string {
  return message.startsWith(`${subject}: `) ? message : `${subject}: ${message}`;
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
