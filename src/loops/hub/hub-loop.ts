// The hub loop (docs/architecture.md#the-hub-loop): triggers (a ref watcher, polling, a webhook, a
// periodic resync) only say "look again"; a work queue with one key coalesces them, so a burst of
// pushes gives at most one pass running and one queued; the worker runs a pass, reports its result,
// and on failure logs the error once and retries with backoff. Stopping lets the pass in hand
// finish. Each pass is counted (metrics) and the first one, whatever its outcome, makes the
// process ready (readiness: `/readyz`); a stopped loop is no longer alive (`/healthz`).
import { defaultBackoff } from '../runtime/backoff.js';
import type { CancelTimer, Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { noMetrics, type Metrics } from '../runtime/metrics.js';
import type { Readiness } from '../runtime/readiness.js';
import { runWorker } from '../runtime/run-worker.js';
import type { Trigger } from '../runtime/trigger.js';
import { createWorkQueue } from '../runtime/work-queue.js';
import type { HubPassResult } from './hub-pass-result.js';
import { failedHubPassReport, hubPassReport } from './hub-pass-report.js';

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
  /** Counts every pass (default: noMetrics). */
  metrics?: Metrics;
  /** Told when the first pass is done and when the loop stops. */
  readiness?: Readiness;
}

/** Runs passes on every trigger until `stop` resolves; returns once the pass in hand is done. */
export async function runHubLoop(opts: HubLoopOptions): Promise<void> {
  const queue = createWorkQueue<'pass'>({ clock: opts.clock, backoff: defaultBackoff(opts.random) });
  const notify = (): void => queue.add('pass');
  queue.add('pass');
  // A failover decision that falls due later (a toleration or grace period ending) runs a pass
  // then: the pass result says when; the latest result's time replaces any earlier one.
  let cancelWake: CancelTimer = () => {};
  // A pass that found nothing to do leaves the timer as it is.
  const wakeAt = (result: HubPassResult): void => {
    if (result.type !== 'rendered') return;
    cancelWake();
    if (result.wakeAt) cancelWake = opts.clock.setTimer(notify, result.wakeAt.getTime() - opts.clock.now());
  };
  const worker = runWorker({
    queue,
    handle: async () => {
      const result = await countedPass(opts);
      wakeAt(result);
      opts.report(result);
    },
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
    cancelWake();
    queue.shutDown();
    await worker;
    opts.readiness?.setStopped();
  }
}

/** Runs one pass and reports it to the metrics and the readiness, whatever its outcome. */
async function countedPass(opts: HubLoopOptions): Promise<HubPassResult> {
  const metrics = opts.metrics ?? noMetrics();
  try {
    const result = await opts.pass();
    metrics.hubPass(hubPassReport(result, opts.clock.now()));
    return result;
  } catch (error) {
    metrics.hubPass(failedHubPassReport(opts.clock.now()));
    throw error;
  } finally {
    opts.readiness?.firstPassDone();
  }
}
