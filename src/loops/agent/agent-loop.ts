// The agent loop (docs/architecture.md#the-agent-loop), the hub loop's twin: triggers (the cluster
// branch moving, a periodic resync, drift watches) only say "look again"; a work queue with one key
// coalesces them, so there is at most one pass running and one queued; a failing pass is retried
// with backoff. A pass that could not reach Git counts as failing: the retries back off while the
// agent keeps correcting drift from the branch as it last read it, and deletes nothing. Beside
// the passes, on its own timer, the heartbeat (heartbeat.ts) tells the hub the agent is alive;
// neither waits for the other, and a failing heartbeat never stops a pass. It starts after the
// first pass that reached Git: before that a remote's mirror may not exist yet (the pass's
// refresh makes it), and a heartbeat could not be pushed anyway. Each pass is counted
// (metrics) and the first one, whatever its outcome, makes the process ready (`/readyz`).
// Status and heartbeat pushes share the push pacer (push-pacer.ts): a status it holds is
// written by a pass queued for when it opens.
import type { ObjectRef } from '../../core/model/object-ref.js';
import { GitfleetError } from '../../core/model/gitfleet-error.js';
import type { ClusterApi } from './cluster-api.js';
import { defaultBackoff } from '../runtime/backoff.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { noMetrics, type Metrics } from '../runtime/metrics.js';
import type { Readiness } from '../runtime/readiness.js';
import { runWorker } from '../runtime/run-worker.js';
import type { Trigger } from '../runtime/trigger.js';
import { createWorkQueue, type WorkQueue } from '../runtime/work-queue.js';
import type { AgentMemory } from './agent-memory.js';
import { DriftWatcher } from './drift-watch.js';
import { ExportWatcher } from './export-watch.js';
import { liveKey } from './live-index.js';
import { startHeartbeat, type Heartbeat } from './heartbeat.js';
import type { PushPacer } from './push-pacer.js';
import type { AgentPassResult } from './run-agent-pass.js';
import { agentPassReport, failedAgentPassReport } from './agent-pass-report.js';

export interface AgentLoopOptions {
  pass: () => Promise<AgentPassResult>;
  client: ClusterApi;
  cluster: string;
  memory: AgentMemory;
  triggers: readonly Trigger[];
  clock: Clock;
  /** Uniform in [0, 1), for the backoff's jitter. */
  random: () => number;
  log: Logger;
  /** Receives every pass's result. */
  report: (result: AgentPassResult) => void;
  /** Resolves when the loop must stop. */
  stop: Promise<void>;
  /** Delay between a watch event and the pass it asks for, so a burst gives one pass (default 500 ms). */
  debounceMs?: number;
  /** Whether to watch applied kinds for drift (default true). */
  watchDrift?: boolean;
  /**
   * The window over which changes of exported EndpointSlices are coalesced into one pass, and so
   * one status commit (default 1 s, defaultExportCoalesceMs).
   */
  exportCoalesceMs?: number;
  /** Writes one heartbeat, every `intervalMs` from the first pass that reached Git (absent: no heartbeat). */
  heartbeat?: {
    write: () => Promise<unknown>;
    leading?: () => boolean;
    intervalMs: number;
    /** While beacons are accepted: the stretched push period (heartbeat.ts). */
    stretchedMs?: () => number | undefined;
  };
  /**
   * Paces the pushes of status and heartbeat together (push-pacer.ts): a status it holds gets a
   * pass when it opens. Absent: they push at once.
   */
  pacer?: PushPacer;
  /** Counts every pass (default: noMetrics). */
  metrics?: Metrics;
  /** Told when the first pass is done and when the loop stops. */
  readiness?: Readiness;
}

/** The default coalescing window of exported EndpointSlice changes (`agent --export-coalesce`). */
export const defaultExportCoalesceMs = 1000;

/** How soon a pass whose deletions wait for the hub (return-handshake.ts) looks again. */
const returnPollMs = 5000;

/** A pass that could not reach Git or the cluster: retried with backoff by the worker. */
class Unreachable extends GitfleetError<'Unreachable'> {
  constructor(message: string) {
    super(message, { code: 'Unreachable' });
  }
}

/** A pass whose refresh the Git host refused for its rate limit: the worker waits `waitMs`, counting no failure. */
class RateLimited extends GitfleetError<'RateLimited'> {
  constructor(
    message: string,
    readonly waitMs: number,
  ) {
    super(message, { code: 'RateLimited' });
  }
}

/** Runs passes on every trigger until `stop` resolves; returns once the pass in hand is done. */
export async function runAgentLoop(opts: AgentLoopOptions): Promise<void> {
  const queue = createWorkQueue<'pass'>({ clock: opts.clock, backoff: defaultBackoff(opts.random) });
  const watchers = createWatchers(opts, queue);
  let heartbeat: Heartbeat | undefined;
  let stopping = false;
  const handle = async (): Promise<void> => {
    const result = await countedPass(opts);
    opts.report(result);
    if (opts.heartbeat && heartbeat === undefined && result.gitReachable && !stopping)
      heartbeat = startHeartbeat({
        ...opts.heartbeat,
        clock: opts.clock,
        log: opts.log,
        ...(opts.pacer ? { pacer: opts.pacer } : {}),
      });
    // A pass that finishes after the loop was told to stop starts no watch: nothing would stop
    // it, and its open request would keep the stopped agent's process alive.
    if (!stopping) followUp(result, opts, queue, watchers);
    const failure = failureOf(result, opts);
    if (failure) throw failure;
  };
  queue.add('pass');
  const worker = runWorker({ queue, handle, log: opts.log, describe: () => `agent ${opts.cluster}` });
  const started: Trigger[] = [];
  try {
    for (const trigger of opts.triggers) {
      await trigger.start(() => queue.add('pass'));
      started.push(trigger);
    }
    await opts.stop;
  } finally {
    stopping = true;
    await Promise.all(started.map((t) => t.stop()));
    watchers.drift.stop();
    watchers.exports.stop();
    queue.shutDown();
    await worker;
    await heartbeat?.stop();
    opts.readiness?.setStopped();
  }
}

type PassQueue = WorkQueue<'pass'>;

interface Watchers {
  drift: DriftWatcher;
  exports: ExportWatcher;
}

/** The watches that ask for a pass: drift of applied objects, changes of exported EndpointSlices. */
function createWatchers(opts: AgentLoopOptions, queue: PassQueue): Watchers {
  const drift = new DriftWatcher({
    client: opts.client,
    cluster: opts.cluster,
    clock: opts.clock,
    random: opts.random,
    log: opts.log,
    onChange: () => queue.addAfter('pass', opts.debounceMs ?? 500),
    isOwnWrite: (kind, object) =>
      opts.memory.settled.get(liveKey(kind, object)) === object.metadata.resourceVersion,
  });
  // The window starts at the first change and later changes join it (of several pending delays
  // for one key the earliest wins), so a continuous churn still gives a pass every window.
  const exports = new ExportWatcher({
    client: opts.client,
    clock: opts.clock,
    random: opts.random,
    log: opts.log,
    onChange: () => queue.addAfter('pass', opts.exportCoalesceMs ?? defaultExportCoalesceMs),
  });
  return { drift, exports };
}

/** What a pass leaves for the loop: the watches it syncs, and the passes it asks for later. */
function followUp(
  result: AgentPassResult,
  opts: AgentLoopOptions,
  queue: PassQueue,
  watchers: Watchers,
): void {
  if (opts.watchDrift !== false) watchers.drift.sync(appliedKinds(result));
  if (result.type !== 'clusterUnreachable') watchers.exports.sync(result.exportedServices);
  // A status the pacer holds is written by the pass at its opening (the newest report then).
  if (result.status.type === 'deferred') queue.addAfter('pass', result.status.retryInMs ?? 1000);
  // Deletions held for the hub after a return: look again soon, the hub's answer need not move the branch.
  if (result.prune?.plan.held.some((h) => h.reason === 'WaitingForHub')) queue.addAfter('pass', returnPollMs);
}

/** The error the worker retries a pass with: the cluster or Git out of reach; undefined: it succeeded. */
function failureOf(result: AgentPassResult, opts: AgentLoopOptions): GitfleetError | undefined {
  if (result.type === 'clusterUnreachable')
    return new Unreachable(
      `${opts.cluster}: the cluster does not answer; reported NotReady, deleted nothing`,
    );
  if (result.gitReachable) return undefined;
  const wait = opts.memory.git.rateLimitWaitMs;
  if (wait !== undefined)
    return new RateLimited(
      `${opts.cluster}: ${opts.memory.git.lastError ?? 'rate limited'}; kept the last applied state, deleted nothing`,
      wait,
    );
  return new Unreachable(
    `${opts.cluster}: ${opts.memory.git.lastError ?? 'the repository cannot be reached'}; kept the last applied state, deleted nothing`,
  );
}

/** Runs one pass and reports it to the metrics and the readiness, whatever its outcome. */
async function countedPass(opts: AgentLoopOptions): Promise<AgentPassResult> {
  const metrics = opts.metrics ?? noMetrics();
  try {
    const result = await opts.pass();
    metrics.agentPass(agentPassReport(result, opts.clock.now()));
    return result;
  } catch (error) {
    metrics.agentPass(failedAgentPassReport(opts.clock.now()));
    throw error;
  } finally {
    opts.readiness?.firstPassDone();
  }
}

/** Returns each kind the pass applied or found in place, once. */
function appliedKinds(result: AgentPassResult): Pick<ObjectRef, 'apiVersion' | 'kind'>[] {
  const kinds = new Map<string, Pick<ObjectRef, 'apiVersion' | 'kind'>>();
  for (const o of result.objects) {
    if (o.live !== undefined)
      kinds.set(`${o.ref.apiVersion}/${o.ref.kind}`, { apiVersion: o.ref.apiVersion, kind: o.ref.kind });
  }
  return [...kinds.values()];
}
