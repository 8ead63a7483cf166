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
import { listRefs } from '../../adapters/git/list-refs.js';
import { openObjectStore } from '../../adapters/git/object-store.js';
import type { GitSignature } from '../../adapters/git/make-commit.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import { bindingsRef, notificationsRef, statusRefPrefix } from '../../core/publish/hub-refs.js';
import { parseTrailers, sourceCommitTrailer } from '../../core/publish/commit-trailers.js';
import type { NotificationPolicy, NotificationReceiverSpec } from '../../core/model/notification-policy.js';
import type { NotificationReceiver } from '../../core/notify/notification-receiver.js';
import type { NotifyCursor } from '../../core/notify/notify-cursor.js';
import type { FleetEvent } from '../../core/notify/fleet-event.js';
import { defaultBackoff, type BackoffSettings } from '../runtime/backoff.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import { createFleetStatusMemo } from '../views/fleet-status-memo.js';
import { readCommit, type FleetRead } from '../views/read-fleet-objects.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import type { HubPassResult } from './hub-pass-result.js';
import { NotifyLane, type QueuedEvent } from './notify-lane.js';
import { readNotifyCursor, writeNotifyCursor } from './notify-cursor-ref.js';
import { loadRoutingFacts, type RoutingFacts } from './notify-policies.js';
import { NotifyRouter, renderFailedEvent, type Stream } from './notify-router.js';

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
  /** Stops the lanes (deliveries in flight are aborted) and writes the branch. */
  stop(): Promise<void>;
}

/** Starts the notifier; nothing is read until the first pass is told. */
export function startNotifyWorker(opts: NotifyWorkerOptions): NotifyWorker {
  const ref = notificationsRef(opts.branchPrefix);
  const state = {
    head: null as string | null,
    cursor: {} as NotifyCursor,
    loaded: false,
    dirty: { delivered: 0, dropped: 0, moved: false },
  };
  const backoff: BackoffSettings = { ...defaultBackoff(opts.random), maxMs: 300_000, ...opts.backoff };
  const lanes = new Map<string, NotifyLane>();
  const unbuilt = new Set<string>();
  const router = new NotifyRouter({
    cursor: () => state.cursor,
    log: opts.log,
    maxCommits: opts.maxCommits ?? 500,
    moved: () => schedule(),
  });
  let routing: RoutingFacts | undefined;
  let failedRouting: string | undefined;
  let renderFailed: FleetEvent | undefined;
  let chain = Promise.resolve();
  let stopped = false;
  let cancelFlush = (): void => undefined;
  let flushAt: number | undefined;

  const settle = (key: string) => (item: QueuedEvent, outcome: 'delivered' | 'givenUp' | 'dropped') => {
    router.settled(key, item);
    const entry = state.cursor[key];
    if (outcome === 'dropped' && entry) entry.dropped++;
    if (outcome === 'dropped') state.dirty.dropped++;
    else state.dirty.delivered++;
    schedule();
  };
  const schedule = (): void => {
    state.dirty.moved = true;
    if (flushAt !== undefined || stopped) return;
    flushAt = opts.clock.now() + (opts.flushIntervalMs ?? 30_000);
    cancelFlush = opts.clock.setTimer(() => void flush(), flushAt - opts.clock.now());
  };
  const flush = async (): Promise<void> => {
    cancelFlush();
    flushAt = undefined;
    if (!state.dirty.moved) return;
    const { delivered, dropped } = state.dirty;
    state.dirty = { delivered: 0, dropped: 0, moved: false };
    try {
      state.head = await writeNotifyCursor({
        repo: opts.repo,
        ref,
        head: state.head,
        cursor: state.cursor,
        delivered,
        dropped,
        author: opts.author(),
        ...(opts.signer ? { signer: opts.signer } : {}),
      });
    } catch (error) {
      // Another writer moved it (a hub that led before): ours is written on top at the next flush.
      state.head = await readRef(opts.repo.gitdir, ref).catch(() => state.head);
      state.dirty = {
        delivered: state.dirty.delivered + delivered,
        dropped: state.dirty.dropped + dropped,
        moved: true,
      };
      opts.log.warn(
        `notifications: ${ref}: not written: ${error instanceof Error ? error.message : String(error)}`,
      );
      schedule();
    }
  };

  const syncLanes = (): string[] => {
    const keys: string[] = [];
    for (const policy of routing?.policies ?? [])
      for (const spec of policy.receivers) {
        const key = `${policy.name}/${spec.name}`;
        if (!lanes.has(key)) {
          const receiver = opts.receiverOf(policy, spec);
          if (!receiver) {
            if (!unbuilt.has(key))
              opts.log.warn(
                `notifications: ${key}: a ${spec.type} receiver is not built into this hub: its events are not sent`,
              );
            unbuilt.add(key);
            continue;
          }
          lanes.set(key, laneOf(opts, { receiver, backoff, settled: settle(key) }));
        }
        keys.push(key);
      }
    for (const [key, lane] of lanes)
      if (!keys.includes(key)) {
        void lane.stop();
        lanes.delete(key);
        router.forget(key);
      }
    return keys;
  };

  const tick = async (): Promise<void> => {
    const gitdir = opts.repo.gitdir;
    if (!state.loaded) {
      Object.assign(state, await readNotifyCursor(gitdir, ref), { loaded: true });
    }
    const bindingsHead = await readRef(gitdir, bindingsRef(opts.branchPrefix));
    if (bindingsHead === null) return;
    const read: FleetRead = { store: openObjectStore(gitdir), memo: createFleetStatusMemo() };
    const sourceCommit =
      parseTrailers(readCommit(read, bindingsHead).message).get(sourceCommitTrailer)?.[0] ?? '';
    if (sourceCommit && sourceCommit !== routing?.commit && sourceCommit !== failedRouting) {
      const loaded = await loadRoutingFacts(gitdir, sourceCommit);
      if (loaded.ok) routing = loaded.facts;
      else {
        failedRouting = sourceCommit;
        opts.log.warn(`notifications: routing with the last policies that loaded: ${loaded.problem}`);
      }
    }
    const keys = syncLanes();
    const streams = await streamsOf(gitdir, opts.branchPrefix, bindingsHead);
    const handed = router.route({ read, streams, receivers: keys, routing, sourceCommit, renderFailed });
    for (const [key, items] of handed) lanes.get(key)?.push(items);
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
    backlog: () => [...lanes.values()].reduce((sum, lane) => sum + lane.backlog, 0),
    flush: () => (chain = chain.then(flush)),
    async stop() {
      stopped = true;
      await chain;
      await Promise.all([...lanes.values()].map((l) => l.stop()));
      await flush();
    },
  };
}

/** The streams events are read from: the bindings branch, then each cluster's status branch by name. */
async function streamsOf(gitdir: string, branchPrefix: string, bindingsHead: string): Promise<Stream[]> {
  const streams: Stream[] = [{ name: 'bindings', head: bindingsHead, kind: 'bindings' }];
  const prefix = statusRefPrefix(branchPrefix);
  for (const [name, head] of [...(await listRefs(gitdir, prefix))].sort())
    streams.push({ name: `status/${name.slice(prefix.length)}`, head, kind: 'status' });
  return streams;
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
