// The hub's commit-status worker (docs/commit-statuses.md): after each pass it is nudged, reads
// the fleet status the pass left (the bindings, the clusters' reports, the rollouts), computes the
// source commit's aggregated status (core/notify/deploy-status.ts) and posts it to the forge only
// when it differs from what the forge shows, never per cluster or per pass (GitHub keeps at most
// 1,000 statuses per commit and context). It runs beside the passes, never inside one: a nudge
// returns at once, a burst of nudges is one run, and a forge that hangs or refuses holds only
// this worker. A failed run is logged once per distinct error (never the token: the adapter
// masks it) and retried: after the forge's rate-limit wait (RateLimited names when its gate
// opens), else with the loops' backoff (1 s doubling to 60 s). What the forge shows is learned
// from the forge: the first time the worker meets a commit (a hub just started, a new source
// commit) it reads the context's latest status back and posts only if it differs. A commit
// replaced by a newer one while its status was pending gets `canceled` ("superseded by …").
import {
  planDeployStatus,
  supersededStatus,
  type DeployStatus,
  type DeployStatusInput,
} from '../../core/notify/deploy-status.js';
import { GitfleetError } from '../../core/model/gitfleet-error.js';
import { backoffDelay, defaultBackoff } from '../runtime/backoff.js';
import type { CancelTimer, Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';

/** What the worker needs of a forge (the forge-status adapter's CommitStatusClient is one). */
export interface CommitStatusPoster {
  post(status: { sha: string; context: string; targetUrl?: string } & DeployStatus): Promise<void>;
  latest(sha: string, context: string): Promise<DeployStatus | undefined>;
}

export interface CommitStatusWorkerOptions {
  /** Reads what the status is computed from; undefined while there is nothing to judge (the hub has not rendered). */
  read: () => Promise<DeployStatusInput | undefined>;
  /**
   * Returns the source commit rendered before this one (the bindings branch's history), which a
   * worker that starts with no memory checks once: left pending by a hub that stopped, it is superseded.
   */
  previousOf?: (sha: string) => Promise<string | undefined>;
  forge: CommitStatusPoster;
  /** The context (GitLab: name) of the status, e.g. `gitfleet/deploy`. */
  context: string;
  /** Linked from the status (a dashboard), when set. */
  targetUrl?: string;
  clock: Clock;
  random: () => number;
  log: Logger;
}

export interface CommitStatusWorker {
  /** Asks for a run soon; returns at once. */
  nudge(): void;
  /** Resolves once no run is in hand (tests). */
  settled(): Promise<void>;
  /** Cancels the retry timer and waits for the run in hand. */
  close(): Promise<void>;
  /** Runs once more, then closes (`hub --once`): a failure is logged, not retried. */
  flush(): Promise<void>;
}

/** Returns a worker that keeps the source commit's status on the forge equal to the fleet's. */
export function commitStatusWorker(opts: CommitStatusWorkerOptions): CommitStatusWorker {
  const state = { dirty: false, closed: false, failures: 0 };
  let running: Promise<void> | undefined;
  let cancelRetry: CancelTimer | undefined;
  let told: string | undefined;
  const sync = statusSync(opts);
  const retry = (error: unknown): void => {
    state.failures++;
    const message = error instanceof Error ? error.message : String(error);
    if (message !== told) opts.log.warn(`commit status ${opts.context}: ${message}; retrying`);
    told = message;
    if (state.closed) return;
    const delay =
      retryDelay(error, opts.clock.now()) ?? backoffDelay(state.failures, defaultBackoff(opts.random));
    cancelRetry = opts.clock.setTimer(() => {
      cancelRetry = undefined;
      worker.nudge();
    }, delay);
  };
  const run = async (): Promise<void> => {
    while (state.dirty && !state.closed) {
      state.dirty = false;
      try {
        await sync();
      } catch (error) {
        retry(error);
        return;
      }
      if (told !== undefined) opts.log.info(`commit status ${opts.context}: the forge takes statuses again`);
      told = undefined;
      state.failures = 0;
    }
  };
  const worker: CommitStatusWorker = {
    nudge: () => {
      if (state.closed) return;
      state.dirty = true;
      // A retry that is due later keeps its wait: the forge asked for it (or is failing).
      if (running || cancelRetry) return;
      running = run().finally(() => (running = undefined));
    },
    settled: async () => {
      while (running) await running;
    },
    close: async () => {
      state.closed = true;
      cancelRetry?.();
      await worker.settled();
    },
    flush: async () => {
      cancelRetry?.();
      cancelRetry = undefined;
      worker.nudge();
      await worker.close();
    },
  };
  return worker;
}

/** One sync: read, compute, supersede the commit before if it stayed pending, post if it changed. */
function statusSync(opts: CommitStatusWorkerOptions): () => Promise<void> {
  // What the forge shows, by commit: the current one and the one before (nothing older is touched).
  const shown = new Map<string, DeployStatus>();
  let current: string | undefined;
  const post = async (sha: string, status: DeployStatus): Promise<void> => {
    await opts.forge.post({
      sha,
      context: opts.context,
      ...status,
      ...(opts.targetUrl ? { targetUrl: opts.targetUrl } : {}),
    });
    shown.set(sha, status);
    opts.log.info(`${sha.slice(0, 7)}: commit status ${opts.context} ${status.state}: ${status.description}`);
  };
  return async () => {
    const input = await opts.read();
    if (!input) return;
    const sha = input.sourceCommit;
    if (current === undefined) current = await leftPending(opts, sha, shown);
    const before = current !== undefined && current !== sha ? shown.get(current) : undefined;
    if (current !== undefined && before?.state === 'pending')
      await post(current, supersededStatus(sha, before));
    if (current !== sha)
      for (const old of shown.keys()) if (old !== current && old !== sha) shown.delete(old);
    current = sha;
    if (!shown.has(sha)) {
      const latest = await opts.forge.latest(sha, opts.context);
      if (latest) shown.set(sha, latest);
    }
    const status = planDeployStatus(input);
    const known = shown.get(sha);
    if (known?.state === status.state && known.description === status.description) return;
    await post(sha, status);
  };
}

/**
 * Returns the source commit before `sha` with the status the forge shows for it, when it is still
 * pending (a hub stopped before it superseded it), so the sync supersedes it; else undefined.
 */
async function leftPending(
  opts: CommitStatusWorkerOptions,
  sha: string,
  shown: Map<string, DeployStatus>,
): Promise<string | undefined> {
  const previous = await opts.previousOf?.(sha);
  if (previous === undefined) return undefined;
  const latest = await opts.forge.latest(previous, opts.context);
  if (latest?.state !== 'pending') return undefined;
  shown.set(previous, latest);
  return previous;
}

/** Returns the wait a rate-limit answer asked for (RateLimited carries when the gate opens), or undefined. */
function retryDelay(error: unknown, now: number): number | undefined {
  if (!(error instanceof GitfleetError) || error.code !== 'RateLimited') return undefined;
  const retryAt = (error as GitfleetError & { retryAt?: number }).retryAt;
  return typeof retryAt === 'number' ? Math.max(1000, retryAt - now) : undefined;
}
