// Steps 4 to 6 of a hub pass (hub-pass.ts): render with the previous bindings, plan every branch,
// write the objects, move the refs in one batch, then keep the pass's memo.
import type { ClusterVerdict } from '../../core/failover/monitored-status.js';
import type { Fleet } from '../../core/model/fleet.js';
import type { HubFailover } from './hub-failover.js';
import { hubRefsOf, saveHubMemo } from './hub-memo.js';
import { sweepHubPassCache } from './hub-pass-cache.js';
import type { HubPassOptions } from './hub-pass-options.js';
import type { HubPassResult, SourceCommit } from './hub-pass-result.js';
import type { PassContext } from './pass-context.js';
import type { PassTimer } from './pass-timer.js';
import { settleRender, type RenderPlacement } from './place-cluster-branches.js';
import { planPassRender, type PassRender } from './plan-pass-render.js';
import { planPassWrites } from './plan-pass-writes.js';
import type { ReadContext } from './read-git-state.js';
import type { HubState } from './read-hub-state.js';
import { RenderUnavailableError } from './render-repositories.js';
import { TextBlobs } from './text-blobs.js';
import { moveRefsOfPass, writeObjectsOfPass } from './write-hub-pass.js';

/** What renderAndWrite is given: the pass's options, what it read, and the source it renders. */
interface RenderPass {
  opts: HubPassOptions;
  read: ReadContext;
  source: SourceCommit;
  fleet: Fleet;
  state: HubState;
  timer: PassTimer;
  failover: HubFailover;
  verdicts: ReadonlyMap<string, ClusterVerdict>;
  placement: RenderPlacement | undefined;
}

/** Steps 4 to 6: render with the previous bindings, plan every branch, write. */
export async function renderAndWrite(pass: RenderPass): Promise<HubPassResult> {
  const { opts, read, source, fleet, state, timer, placement } = pass;
  const rendered = await renderPass(pass);
  const { render, rollout, failoverWrites } = rendered;
  const { ctx, blobs, plan } = await planWrites(pass, rendered);
  const objects = await writePlan(opts, plan, ctx.known, timer);
  settleRender(opts.renderRepositories, fleet, placement);
  read.cache.branches = ctx.branches;
  timer.mark('refsMs');
  sweepHubPassCache(read.cache);
  const timings = timer.done();
  await persistMemo(opts, read, fleet.config.branchPrefix, () => (timings.memoMs = timer.sinceDone()));
  return {
    type: 'rendered',
    source,
    clusters: plan.clusters,
    bindings: plan.bindings,
    diagnostics: [
      ...(state.recordDiagnostics ?? []),
      ...rendered.exportDiagnostics,
      ...render.diagnostics,
      ...(rollout?.diagnostics ?? []),
      ...plan.diagnostics,
    ],
    ...(failoverWrites.decisions.length > 0 ? { decisions: failoverWrites.decisions } : {}),
    ...(rollout && rollout.decisions.length > 0 ? { rolloutDecisions: rollout.decisions } : {}),
    ...(failoverWrites.wakeAt ? { wakeAt: failoverWrites.wakeAt } : {}),
    written: { objects, refs: plan.moves.length, hashedTexts: blobs.hashed },
    timings,
    attempts: 1,
  };
}

/** Step 4: the render on the recorded state, with its failover and rollout decisions. */
async function renderPass(pass: RenderPass): Promise<PassRender> {
  const { opts, read, source, fleet, state, timer, failover, verdicts } = pass;
  const rendered = await planPassRender({
    read,
    fleet,
    state,
    sourceCommit: source.commit,
    now: opts.now(),
    failover,
    verdicts,
    ...(opts.progress ? { progress: opts.progress } : {}),
    ...(opts.signer ? { signer: opts.signer } : {}),
    onStateRead: () => timer.mark('readMs'),
  });
  timer.mark('renderMs');
  // A fleet gone quiet stops the evictions: said once, when it starts and when it ends.
  for (const d of rendered.failoverWrites.decisions)
    if (d.type === 'FleetDisruption') opts.log.warn(d.message);
  return rendered;
}

/** Step 5: every branch's commit planned, the texts hashed on the way kept for the next pass. */
async function planWrites(pass: RenderPass, { render, reports, rollout, failoverWrites }: PassRender) {
  const { opts, read, source, fleet, state, timer, placement } = pass;
  const blobs = new TextBlobs(read.cache);
  const ctx: PassContext = {
    ...read,
    blobs,
    known: new Set(),
    branches: new Map(),
    author: signature(opts),
    sourceCommit: source,
    ...(opts.signer ? { signer: opts.signer } : {}),
  };
  const plan = await planPassWrites(ctx, {
    fleet,
    render,
    state,
    reports,
    failover: failoverWrites,
    ...(rollout ? { rollout } : {}),
    ...(placement ? { placement } : {}),
  });
  blobs.remember();
  timer.mark('planMs');
  return { ctx, blobs, plan };
}

/** Writes the plan's objects, then moves its refs; returns how many objects were written. */
async function writePlan(
  opts: HubPassOptions,
  plan: Awaited<ReturnType<typeof planPassWrites>>,
  known: Set<string>,
  timer: PassTimer,
): Promise<number> {
  const write = {
    repo: opts.repo,
    objects: plan.objects,
    moves: plan.moves,
    known,
    warn: (m: string) => opts.log.warn(m),
    ...(opts.hooks ? { hooks: opts.hooks } : {}),
    ...(opts.renderRepositories ? { render: opts.renderRepositories } : {}),
  };
  const objects = await writeObjectsOfPass(write);
  timer.mark('writeMs');
  await moveRefsOfPass(write).catch((error: unknown) => {
    // What this attempt published stays published: the pass that runs again says so.
    throw error instanceof RenderUnavailableError
      ? new RenderUnavailableError(error.refused, plan.clusters)
      : error;
  });
  return objects;
}

/**
 * After the refs moved (the pass's effect is out), keeps the pass cache on disk, or notes what the
 * deferred memo would name (HubPassOptions.persistMemo); `timed` is told once a written memo is
 * done: its time is outside the pass's total, timed on its own.
 */
async function persistMemo(
  opts: HubPassOptions,
  read: ReadContext,
  prefix: string,
  timed: () => void,
): Promise<void> {
  if (opts.persistMemo === undefined || opts.persistMemo === true) {
    await saveHubMemo(read.cache, { gitdir: opts.repo.gitdir, prefix, log: opts.log });
    timed();
  } else if (opts.persistMemo === 'deferred') {
    read.cache.memoPending = { prefix, refs: await hubRefsOf(opts.repo.gitdir, prefix) };
  }
}

function signature(opts: HubPassOptions): PassContext['author'] {
  return { ...opts.identity, time: Math.floor(opts.now().getTime() / 1000), tzOffsetMinutes: 0 };
}
