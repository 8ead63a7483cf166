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
import { createWorkQueue, type WorkQueue } from '../runtime/work-queue.js';
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
  /**
   * Writes the hub memo a pass left pending (saveDeferredHubMemo; never throws): run once no
   * pass has rendered for `memoIdleMs`, and when the loop stops, never while a pass runs.
   */
  saveMemo?: () => Promise<void>;
  /** How long after the last rendered pass the memo is written (default 10 s). */
  memoIdleMs?: number;
}

const defaultMemoIdleMs = 10_000;

/** Runs passes on every trigger until `stop` resolves; returns once the pass in hand is done. */
export async function runHubLoop(opts: HubLoopOptions): Promise<void> {
  const queue = createWorkQueue<Work>({ clock: opts.clock, backoff: defaultBackoff(opts.random) });
  const notify = (): void => queue.add('pass');
  queue.add('pass');
  // A failover decision that falls due later (a toleration or grace period ending) runs a pass
  // then: the pass result says when; the latest result's time replaces any earlier one.
  let cancelWake: CancelTimer = () => {};
  // A pass that found nothing to do leaves the timer as it is.
  // A record of moved statuses that waits for its gap (status-record-gap.ts) runs a pass then,
  // beside any failover decision's wake.
  let cancelRecord: CancelTimer = () => {};
  const wakeAt = (result: HubPassResult): void => {
    if (result.type === 'upToDate' && result.wakeAt) {
      cancelRecord();
      cancelRecord = opts.clock.setTimer(notify, result.wakeAt.getTime() - opts.clock.now());
    }
    if (result.type !== 'rendered') return;
    cancelWake();
    if (result.wakeAt) cancelWake = opts.clock.setTimer(notify, result.wakeAt.getTime() - opts.clock.now());
  };
  const memo = idleMemo(opts, queue);
  const worker = runWorker({
    queue,
    handle: async (work) => {
      if (work === 'memo') return memo.due();
      const result = await countedPass(opts);
      wakeAt(result);
      if (result.type === 'rendered') memo.rendered();
      opts.report(result);
    },
    log: opts.log,
    describe: (work) => (work === 'memo' ? 'hub memo' : 'hub pass'),
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
    cancelRecord();
    queue.shutDown();
    await worker;
    await memo.flush();
    opts.readiness?.setStopped();
  }
}

type Work = 'pass' | 'memo';

/**
 * The memo's write, kept off the passes: after a rendered pass it is due once no pass has
 * rendered for memoIdleMs (a burst of pushes writes it once, after the burst), it runs on the
 * loop's one worker (never beside a pass, which changes the cache it writes), and a stopping
 * loop writes what is pending. A hub killed before it wrote starts from the memo before, whose
 * refs are stale: ignored, a full pass, never a wrong one.
 */
function idleMemo(opts: HubLoopOptions, queue: WorkQueue<Work>) {
  const idleMs = opts.memoIdleMs ?? defaultMemoIdleMs;
  let pending = false;
  let lastRendered = 0;
  const save = async (): Promise<void> => {
    pending = false;
    await opts.saveMemo?.();
  };
  return {
    rendered(): void {
      if (!opts.saveMemo) return;
      pending = true;
      lastRendered = opts.clock.now();
      queue.addAfter('memo', idleMs);
    },
    async due(): Promise<void> {
      if (!pending) return;
      const wait = lastRendered + idleMs - opts.clock.now();
      if (wait > 0) queue.addAfter('memo', wait);
      else await save();
    },
    flush: (): Promise<void> => (pending ? save() : Promise.resolve()),
  };
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
