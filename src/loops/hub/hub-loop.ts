// The hub loop (docs/architecture.md#the-hub-loop): triggers (a ref watcher, polling, a webhook, a
// periodic resync) only say "look again"; a work queue with one key coalesces them, so a burst of
// pushes gives at most one pass running and one queued; the worker runs a pass, reports its result,
// and on failure logs the error once and retries with backoff. Stopping lets the pass in hand
// finish.
import { defaultBackoff } from '../runtime/backoff.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { runWorker } from '../runtime/run-worker.js';
import type { Trigger } from '../runtime/trigger.js';
import { createWorkQueue } from '../runtime/work-queue.js';
import type { HubPassResult } from './hub-pass-result.js';

export interface HubLoopOptions {
  /** Runs one pass (runHubPass with the loop's repository, cache and identity). */
  pass: () => Promise<HubPassResult>;
  triggers: readonly Trigger[];
  clock: Clock;
  /** Uniform in [0, 1), for the backoff's jitter. */
  random: () => number;
  log: Logger;
  /** Receives every pass's result. */
  report: (result: HubPassResult) => void;
  /** Resolves when the loop must stop (SIGINT, SIGTERM). */
  stop: Promise<void>;
}

/** Runs passes on every trigger until `stop` resolves; returns once the pass in hand is done. */
export async function runHubLoop(opts: HubLoopOptions): Promise<void> {
  const queue = createWorkQueue<'pass'>({ clock: opts.clock, backoff: defaultBackoff(opts.random) });
  const notify = (): void => queue.add('pass');
  queue.add('pass');
  const worker = runWorker({
    queue,
    handle: async () => opts.report(await opts.pass()),
    log: opts.log,
    describe: () => 'hub pass',
  });
  const started: Trigger[] = [];
  try {
    for (const trigger of opts.triggers) {
      await trigger.start(notify);
      started.push(trigger);
    }
    await opts.stop;
  } finally {
    await Promise.all(started.map((t) => t.stop()));
    queue.shutDown();
    await worker;
  }
}
