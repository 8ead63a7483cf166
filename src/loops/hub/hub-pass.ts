// One hub pass (docs/architecture.md#one-hub-pass): render the source commit and bring every branch
// of the hub in line with it. Level-triggered and idempotent: it reads the whole current state, and
// a second pass over the same source commit writes nothing.
//
//   1. refresh the repository; resolve the source ref to commit S; when the bindings branch
//      names S, records no refused deletion (still pending: judged and reported again) and no
//      hub branch moved since, stop: nothing to do, and no tree was read
//      (find-rendered-already.ts); otherwise read S's files and message;
//   2. load the fleet (load-verified-fleet.ts: gated by the source verification, template
//      sources rendered); on load errors stop here: nothing is written, every branch stays;
//   3. read the hub's branches (prefix from the FleetConfig): the bindings branch names the
//      last rendered source commit (S already rendered: stop, nothing to do) and holds the
//      previous bindings, read only from a record the hub's keys signed when it signs
//      (trust-hub-records.ts); the cluster branches' current trees;
//   4. render with the previous bindings (stickiness survives restarts), the clusters' status,
//      the failover records and the rollout stage (plan-pass-render.ts, which `gitfleet diff`
//      runs too, so its preview is what the pass writes);
//   5. plan every branch: registered clusters (plan-cluster-branch.ts, with the mass-deletion
//      guard; a branch someone else moved is judged against the hub's last commit there, which
//      the bindings branch records, and put back), unregistered clusters with a branch
//      (tombstones), the bindings branch;
//   6. write all objects, then move all refs in one compare-and-swap batch (write-hub-pass.ts).
//      Another writer moved a ref first: the pass runs again on the new state (bounded).
import { sameJudged } from '../../core/failover/failover-trailers.js';
import { statusRecordWait } from './status-record-gap.js';
import { defaultHubFailover, passVerdicts, wakeAtDue, type HubFailover } from './hub-failover.js';
import { PassTimer } from './pass-timer.js';
import { renderAndWrite } from './render-and-write.js';
import type { HubPassOptions } from './hub-pass-options.js';
import { createHubPassCache } from './hub-pass-cache.js';
import type { ClusterPassOutcome, HubPassResult, SourceCommit } from './hub-pass-result.js';
import { openObjectStore } from '../../adapters/git/object-store.js';
import { needsSignature } from './pass-context.js';
import { readHubState, type BindingsHead, type HubState } from './read-hub-state.js';
import { RenderUnavailableError } from './render-repositories.js';
import {
  placeClusterBranches,
  renderSettled,
  settleRender,
  type RenderPlacement,
} from './place-cluster-branches.js';
import type { ClusterVerdict } from '../../core/failover/monitored-status.js';
import { withPublished } from './plan-render-writes.js';
import { readAssignedStatus, withUnreadable } from './read-assigned-status.js';
import type { ReadContext } from './read-git-state.js';
import { resolveSourceHead } from './read-source-commit.js';
import { findRenderedAlready, isRenderedAlready } from './find-rendered-already.js';
import { trustHubRecords } from './trust-hub-records.js';
import { loadVerifiedFleet, type LoadedFleet } from './load-verified-fleet.js';
import type { RefreshAhead } from './refresh-ahead.js';
import { isLostRace } from './lost-race.js';

export type { HubPassOptions };

/** Returns what one pass did; throws only for failures a later retry may fix, or terminal ones the loop reports. */
export async function runHubPass(opts: HubPassOptions): Promise<HubPassResult> {
  const maxAttempts = opts.maxAttempts ?? 5;
  // One failover memory for every attempt of the pass (the caller's, or a fresh one).
  const withFailover = { ...opts, failover: opts.failover ?? defaultHubFailover(), unwritable: new Map() };
  let published: Readonly<Record<string, ClusterPassOutcome>> = {};
  for (let attempt = 1; ; attempt++) {
    try {
      return withPublished({ ...(await attemptPass(withFailover)), attempts: attempt }, published);
    } catch (error) {
      // Render repositories refused the write: once more, their clusters held, the others published.
      if (
        error instanceof RenderUnavailableError &&
        [...error.refused.keys()].some((u) => !withFailover.unwritable.has(u))
      ) {
        for (const [url, why] of error.refused) withFailover.unwritable.set(url, why);
        published = { ...published, ...error.outcomes };
        continue;
      }
      if (!isLostRace(error) || attempt >= maxAttempts) throw error;
      opts.log.warn(
        `${(error as Error).message}: another writer moved it first; reading again (attempt ${attempt + 1} of ${maxAttempts})`,
      );
    }
  }
}

async function attemptPass(opts: PassAttempt): Promise<HubPassResult> {
  // The fleet repository's refresh goes first (the pass waits for it before anything else); the
  // side repositories the last pass read are refreshed beside it.
  const refreshed = opts.repo.refresh();
  const ahead = {
    status: opts.statusRepositories?.refreshAhead(),
    render: opts.renderRepositories?.refreshAhead(opts.unwritable),
  };
  try {
    return await passFromRefresh(opts, refreshed, ahead);
  } finally {
    // A pass that stops early leaves no refresh running behind it (they never throw).
    await Promise.all([ahead.status?.done, ahead.render?.done]);
  }
}

/** The side repositories' refreshes the pass started ahead (refresh-ahead.ts). */
interface SidesAhead {
  status: RefreshAhead | undefined;
  render: RefreshAhead | undefined;
}

async function passFromRefresh(
  opts: PassAttempt,
  refreshed: Promise<void>,
  ahead: SidesAhead,
): Promise<HubPassResult> {
  const timer = new PassTimer(opts.elapsed);
  const cache = opts.cache ?? createHubPassCache();
  await refreshed;
  const read: ReadContext = { store: openObjectStore(opts.repo.gitdir, cache.packs), cache };
  const looks = upToDateLooks(opts, read);
  // The source ref is resolved once: the quick look and the full pass read the same commit.
  const head = await resolveSourceHead(read, opts.sourceRef);
  // With status repositories, the status heads that decide "up to date" are not in `repo`.
  // So are the cluster heads with render repositories (render-repositories.ts).
  const quick =
    !opts.force &&
    (opts.statusRepositories === undefined || opts.statusRepositories.fleetOnly()) &&
    (opts.renderRepositories === undefined || opts.renderRepositories.fleetOnly());
  const already = quick ? await findRenderedAlready(read, head, looks.failoverCurrent, looks.signed) : null;
  if (already) {
    timer.mark('readMs');
    return { type: 'upToDate', ...already, timings: timer.done(), attempts: 1 };
  }
  const loaded = await loadVerifiedFleet(opts, { read, timer, head });
  if (loaded.type === 'stopped') return loaded.result;
  return placeAndRender(opts, { read, timer, looks, ahead, ...loaded });
}

/** What the up-to-date predicate asks beyond the refs (find-rendered-already.ts: isRenderedAlready). */
interface UpToDateLooks {
  /** Whether the failover state the bindings head records is still current. */
  failoverCurrent: (head: BindingsHead) => boolean;
  /** Whether a commit must be signed again (a new signing key). */
  signed: (commit: string) => Promise<boolean>;
}

function upToDateLooks(opts: PassAttempt, read: ReadContext): UpToDateLooks {
  const { failover } = opts;
  return {
    // Whether the statuses moved since the head is checked apart from this: here they are as recorded.
    failoverCurrent: (head) =>
      !wakeAtDue(head.wakeAt, opts.now()) && sameJudged(head.judged, passVerdicts(failover, head)),
    signed: (commit) =>
      needsSignature({ store: read.store, ...(opts.signer ? { signer: opts.signer } : {}) }, commit),
  };
}

// Steps 3 to 6: the hub's branches read and placed; nothing to do when the bindings record says
// so (the same predicate as the quick look, on the state read in full), else render and write.
async function placeAndRender(
  opts: PassAttempt,
  ctx: { read: ReadContext; timer: PassTimer; looks: UpToDateLooks; ahead: SidesAhead } & LoadedFleet,
): Promise<HubPassResult> {
  const { read, timer, source, fleet, refusal, ahead } = ctx;
  const { failover } = opts;
  const { state, placement } = await placeClusterBranches({
    repos: opts.renderRepositories,
    read,
    fleet,
    state: await readAssignedStatus(
      opts.statusRepositories,
      read,
      fleet,
      await trustHubRecords(read, await readHubState(read, fleet.config.branchPrefix), opts),
      ahead.status,
    ),
    unwritable: opts.unwritable,
    ...(ahead.render ? { ahead: ahead.render } : {}),
  });
  const verdicts = passVerdicts(failover, state.bindings, {
    statusHeads: state.statusHeads,
    clusters: new Set(fleet.clusters.map((c) => c.name)),
  });
  const head = state.bindings.head;
  const idle =
    head === null || opts.force ? 'write' : await nothingToWrite(opts, ctx, state, placement, verdicts);
  if (head !== null && idle !== 'write') {
    settleRender(opts.renderRepositories, fleet, placement);
    timer.mark('readMs');
    const result = {
      type: 'upToDate',
      source,
      bindingsCommit: head,
      timings: timer.done(),
      attempts: 1,
    } as const;
    return withUnreadable({ ...result, ...idle, ...refusal }, state);
  }
  const written = await renderAndWrite({
    opts,
    read,
    source,
    fleet,
    state,
    timer,
    failover,
    verdicts,
    placement,
  });
  return withUnreadable({ ...written, ...refusal }, state);
}

/**
 * Whether the pass has nothing to write: the bindings record says so (the same predicate as the
 * quick look, on the state read in full), or all that moved is statuses, whose record waits for
 * --status-record-interval (status-record-gap.ts: `wakeAt`, when the pass is due).
 */
async function nothingToWrite(
  opts: PassAttempt,
  ctx: { read: ReadContext; looks: UpToDateLooks; source: SourceCommit },
  state: HubState,
  placement: RenderPlacement | undefined,
  verdicts: ReadonlyMap<string, ClusterVerdict>,
): Promise<'write' | { wakeAt?: Date }> {
  const settled = renderSettled(state, placement);
  const looks = { failoverCurrent: ctx.looks.failoverCurrent, needsSignature: ctx.looks.signed };
  const done = await isRenderedAlready(state.bindings, {
    source: ctx.source.commit,
    ...looks,
    statusHeads: () => Promise.resolve(state.statusHeads),
    clusterHeads: () => Promise.resolve(state.clusterHeads),
  });
  if (done && settled) return {};
  const wakeAt = await statusRecordWait({
    read: ctx.read,
    state,
    source: ctx.source.commit,
    verdicts,
    settled,
    ...looks,
    now: opts.now(),
    gapMs: opts.statusRecordGapMs ?? 0,
  });
  return wakeAt === null ? 'write' : { wakeAt };
}

/** One attempt's options: the pass's, the failover memory, and the render repositories that refused a write in an earlier attempt. */
type PassAttempt = HubPassOptions & { failover: HubFailover; unwritable: Map<string, string> };
