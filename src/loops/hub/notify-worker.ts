// The hub's notifier (docs/notifications.md): beside the hub loop, never in it. After each pass
// the loop tells it the result (`passed`, which returns at once); the notifier then reads the
// bindings and status branches from where its receivers are (notify-streams.ts), routes each new
// event by the NotificationPolicies of the source the hub rendered (notify-policies.ts), and hands
// it to the receiver's lane (notify-lane.ts), which delivers on its own time. What each receiver
// got is recorded on the notifications branch (notify-cursor-ref.ts), written at most once per
// flush interval and when the hub stops: a hub that restarts or takes over resumes there, and an
// event delivered but not yet recorded when a hub dies is sent again with the same id (receivers
// de-duplicate on it). A receiver the notifier first meets starts at the branches' heads.
import { readRef } from '../../adapters/git/read-ref.js';
import { openObjectStore } from '../../adapters/git/object-store.js';
import type { GitSignature } from '../../adapters/git/make-commit.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import { bindingsRef, notificationsRef } from '../../core/publish/hub-refs.js';
import { parseTrailers, sourceCommitTrailer } from '../../core/publish/commit-trailers.js';
import type { NotificationPolicy, NotificationReceiverSpec } from '../../core/model/notification-policy.js';
import type { NotificationReceiver } from '../../core/notify/notification-receiver.js';
import type { FleetEvent } from '../../core/notify/fleet-event.js';
import { defaultBackoff, type BackoffSettings } from '../runtime/backoff.js';
import type { CancelTimer, Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import { createFleetStatusMemo } from '../views/fleet-status-memo.js';
import { readCommit, type FleetRead } from '../views/read-fleet-objects.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import { streamsOf, type StatusBranches } from './notify-stream-heads.js';
import type { HubPassResult } from './hub-pass-result.js';
import { NotifyLane, type QueuedEvent } from './notify-lane.js';
import { NotifyCursorStore } from './notify-cursor-store.js';
import { loadRoutingFacts, type RoutingFacts } from './notify-policies.js';
import { NotifyRouter, renderFailedEvent } from './notify-router.js';

export interface NotifyWorkerOptions {
  repo: HubRepo;
  branchPrefix: string;
  /** Builds the receiver of a policy's entry; undefined: this hub cannot deliver to it (logged once). */
  receiverOf: (
    policy: NotificationPolicy,
    spec: NotificationReceiverSpec,
  ) => NotificationReceiver | undefined;
  clock: Clock;
  random: () => number;
  log: Logger;
  metrics?: Metrics;
  /** The committer of the notifications branch, at the clock's time. */
  author: () => GitSignature;
  signer?: CommitSigner;
  /** Events waiting per receiver at most (default 1,000). */
  maxBacklog?: number;
  /** Commits read back per stream at most (default 500). */
  maxCommits?: number;
  /** The notifications branch is written at most this often (default 30 s). */
  flushIntervalMs?: number;
  backoff?: Partial<Omit<BackoffSettings, 'random'>>;
  /**
   * Where each cluster's status branch is read when the fleet names status repositories (the
   * hub's, refreshed by its passes); absent: every status branch is in the hub's repository.
   */
  statusRepositories?: StatusBranches;
}

/** The running notifier. */
export interface NotifyWorker {
  /** Tells the notifier a pass ended; returns at once. */
  passed(result: HubPassResult): void;
  /** Resolves once the reads asked for so far are done (events handed to the lanes). */
  idle(): Promise<void>;
  /** Events waiting in every receiver's lane, the one in flight included. */
  backlog(): number;
  /** Writes the notifications branch now if anything settled since it was written. */
  flush(): Promise<void>;
  /** Stops the lanes (deliveries in flight finish within their deadline) and writes the branch. */
  stop(): Promise<void>;
  /**
   * Waits for the reads asked for and for every lane's backlog to be delivered, at most `timeoutMs`
   * on the clock, then stops (`hub --once`); returns how many events were left for a later run.
   */
  drain(timeoutMs: number): Promise<number>;
}

export type { StatusBranches };

/** Starts the notifier; nothing is read until the first pass is told. */
export function startNotifyWorker(opts: NotifyWorkerOptions): NotifyWorker {
  const store = new NotifyCursorStore({
    repo: opts.repo,
    ref: notificationsRef(opts.branchPrefix),
    clock: opts.clock,
    log: opts.log,
    author: opts.author,
    ...(opts.signer ? { signer: opts.signer } : {}),
    ...(opts.flushIntervalMs !== undefined ? { flushIntervalMs: opts.flushIntervalMs } : {}),
  });
  const router = new NotifyRouter({
    cursor: () => store.cursor,
    log: opts.log,
    maxCommits: opts.maxCommits ?? 500,
    moved: () => store.moved(),
  });
  const lanes = receiverLanes(opts, store, router);
  const routing = routingTracker(opts);
  let renderFailed: FleetEvent | undefined;
  let chain = Promise.resolve();
  let stopped = false;

  const tick = (): Promise<void> => routeNewEvents({ opts, store, router, lanes, routing, renderFailed });
  const stop = async (): Promise<void> => {
    stopped = true;
    store.close();
    await chain;
    await lanes.stop();
    await store.flush();
  };

  return {
    passed(result) {
      if (stopped) return;
      if (result.type === 'loadFailed') renderFailed = renderFailedEvent(result, opts.clock.now());
      else if (result.type === 'rendered' || result.type === 'upToDate') renderFailed = undefined;
      chain = chain.then(tick).catch((error: unknown) => {
        opts.log.warn(
          `notifications: reading the branches failed: ${error instanceof Error ? error.message : String(error)}; trying at the next pass`,
        );
      });
    },
    idle: () => chain,
    backlog: lanes.backlog,
    flush: () => (chain = chain.then(() => store.flush())),
    stop,
    async drain(timeoutMs) {
      await chain;
      await untilOrAfter(opts.clock, lanes.idle(), timeoutMs);
      const left = lanes.backlog();
      await stop();
      return left;
    },
  };
}

/** One read of the branches: the new events since each receiver's position, handed to its lane. */
async function routeNewEvents(ctx: {
  opts: NotifyWorkerOptions;
  store: NotifyCursorStore;
  router: NotifyRouter;
  lanes: ReturnType<typeof receiverLanes>;
  routing: ReturnType<typeof routingTracker>;
  renderFailed: FleetEvent | undefined;
}): Promise<void> {
  const { opts, router, lanes, renderFailed } = ctx;
  const gitdir = opts.repo.gitdir;
  await ctx.store.load();
  const bindingsHead = await readRef(gitdir, bindingsRef(opts.branchPrefix));
  if (bindingsHead === null) return;
  const read: FleetRead = { store: openObjectStore(gitdir), memo: createFleetStatusMemo() };
  const sourceCommit =
    parseTrailers(readCommit(read, bindingsHead).message).get(sourceCommitTrailer)?.[0] ?? '';
  const facts = await ctx.routing(sourceCommit);
  const keys = lanes.sync(facts);
  const streams = await streamsOf(gitdir, opts, bindingsHead);
  const handed = router.route({ read, streams, receivers: keys, routing: facts, sourceCommit, renderFailed });
  for (const [key, items] of handed) lanes.get(key)?.push(items);
}

/** The lanes of the receivers the policies name, built as they appear and stopped as they go. */
function receiverLanes(opts: NotifyWorkerOptions, store: NotifyCursorStore, router: NotifyRouter) {
  const backoff: BackoffSettings = { ...defaultBackoff(opts.random), maxMs: 300_000, ...opts.backoff };
  const lanes = new Map<string, NotifyLane>();
  const unbuilt = new Set<string>();
  const settled = (key: string) => (item: QueuedEvent, outcome: 'delivered' | 'givenUp' | 'dropped') => {
    router.settled(key, item);
    store.settled(key, outcome);
  };
  const build = (policy: NotificationPolicy, spec: NotificationReceiverSpec, key: string): boolean => {
    if (lanes.has(key)) return true;
    const receiver = opts.receiverOf(policy, spec);
    if (!receiver) {
      if (!unbuilt.has(key))
        opts.log.warn(
          `notifications: ${key}: a ${spec.type} receiver is not built into this hub: its events are not sent`,
        );
      unbuilt.add(key);
      return false;
    }
    lanes.set(key, laneOf(opts, { receiver, backoff, settled: settled(key) }));
    return true;
  };
  return {
    /** Returns the keys of the receivers the policies name and this hub delivers to, their lanes built. */
    sync(routing: RoutingFacts | undefined): string[] {
      const keys: string[] = [];
      for (const policy of routing?.policies ?? [])
        for (const spec of policy.receivers) {
          const key = `${policy.name}/${spec.name}`;
          if (build(policy, spec, key)) keys.push(key);
        }
      for (const [key, lane] of lanes)
        if (!keys.includes(key)) {
          void lane.stop();
          lanes.delete(key);
          router.forget(key);
        }
      return keys;
    },
    get: (key: string) => lanes.get(key),
    backlog: () => [...lanes.values()].reduce((sum, lane) => sum + lane.backlog, 0),
    idle: async () => void (await Promise.all([...lanes.values()].map((l) => l.idle()))),
    stop: async () => void (await Promise.all([...lanes.values()].map((l) => l.stop()))),
  };
}

/**
 * Returns the routing facts of the source commit the bindings branch rendered, loaded once per
 * commit; a commit that does not load keeps the facts of the last one that did (said once).
 */
function routingTracker(
  opts: NotifyWorkerOptions,
): (sourceCommit: string) => Promise<RoutingFacts | undefined> {
  let routing: RoutingFacts | undefined;
  let failed: string | undefined;
  return async (sourceCommit) => {
    if (sourceCommit && sourceCommit !== routing?.commit && sourceCommit !== failed) {
      const loaded = await loadRoutingFacts(opts.repo.gitdir, sourceCommit);
      if (loaded.ok) routing = loaded.facts;
      else {
        failed = sourceCommit;
        opts.log.warn(`notifications: routing with the last policies that loaded: ${loaded.problem}`);
      }
    }
    return routing;
  };
}

/** Resolves when `done` does or after `ms` on the clock, whichever is first. */
async function untilOrAfter(clock: Clock, done: Promise<void>, ms: number): Promise<void> {
  let cancel: CancelTimer = () => undefined;
  const late = new Promise<void>((resolve) => (cancel = clock.setTimer(resolve, ms)));
  await Promise.race([done, late]);
  cancel();
}

/** A receiver's delivery lane, with the worker's clock, log, metrics and backlog bound. */
function laneOf(
  opts: NotifyWorkerOptions,
  lane: Pick<ConstructorParameters<typeof NotifyLane>[0], 'receiver' | 'backoff' | 'settled'>,
): NotifyLane {
  return new NotifyLane({
    ...lane,
    clock: opts.clock,
    log: opts.log,
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
    ...(opts.maxBacklog ? { maxBacklog: opts.maxBacklog } : {}),
  });
}
