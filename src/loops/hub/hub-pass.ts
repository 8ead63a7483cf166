// One hub pass (docs/architecture.md#one-hub-pass): render the source commit and bring every branch
// of the hub in line with it. Level-triggered and idempotent: it reads the whole current state, and
// a second pass over the same source commit writes nothing.
//
//   1. refresh the repository; resolve the source ref to commit S; when the bindings branch
//      names S, records no refused deletion (still pending: judged and reported again) and no
//      hub branch moved since, stop: nothing to do, and no tree was read
//      (find-rendered-already.ts); otherwise read S's files and message;
//   2. load the fleet; on load errors stop here: nothing is written, every branch stays;
//   3. read the hub's branches (prefix from the FleetConfig): the bindings branch names the
//      last rendered source commit (S already rendered: stop, nothing to do) and holds the
//      previous bindings; the cluster branches' current trees;
//   4. render with the previous bindings (stickiness survives restarts), the clusters' status,
//      the failover records and the rollout stage (plan-pass-render.ts, which `gitfleet diff`
//      runs too, so its preview is what the pass writes);
//   5. plan every branch: registered clusters (plan-cluster-branch.ts, with the mass-deletion
//      guard; a branch someone else moved is judged against the hub's last commit there, which
//      the bindings branch records, and put back), unregistered clusters with a branch
//      (tombstones), the bindings branch;
//   6. write all objects, then move all refs in one compare-and-swap batch (write-hub-pass.ts).
//      Another writer moved a ref first: the pass runs again on the new state (bounded).
import { GitWriteError } from '../../adapters/git/git-write-error.js';
import { ConfigError } from '../../core/model/config-error.js';
import { isGitfleetError } from '../../core/model/gitfleet-error.js';
import { InterpreterSession } from '../../adapters/lua/interpreter-session.js';
import {
  loadFleet,
  type LoadError,
  type LoadResult,
  type RenderedFile,
  type SourceFile,
} from '../../core/load/load-fleet.js';
import { loadWithSources, type TemplateSourceRenderer } from '../shared/load-with-sources.js';
import { gitSourceTree, type SourceTree } from '../../adapters/render-tools/source-tree.js';
import type { Fleet } from '../../core/model/fleet.js';
import type { ClusterVerdict } from '../../core/failover/monitored-status.js';
import { sameJudged } from '../../core/failover/failover-trailers.js';
import { defaultHubFailover, passVerdicts, wakeAtDue, type HubFailover } from './hub-failover.js';
import { sameStatusHeads } from './read-status-branches.js';
import type { Logger } from '../runtime/logger.js';
import { Stopwatch } from '../runtime/stopwatch.js';
import { createHubPassCache, sweepHubPassCache, type HubPassCache } from './hub-pass-cache.js';
import {
  noTimings,
  type ClusterPassOutcome,
  type HubPassResult,
  type PassTimings,
  type SourceCommit,
} from './hub-pass-result.js';
import type { HubRepo } from '../shared/hub-repo.js';
import { openObjectStore } from '../../adapters/git/object-store.js';
import { needsSignature, type PassContext } from './pass-context.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import { gateSource } from './hub-source-gate.js';
import type { SourceKeyFlags } from '../shared/source-policy.js';
import { planPassWrites } from './plan-pass-writes.js';
import { planPassRender } from './plan-pass-render.js';
import { readHubState, type BindingsHead, type HubState } from './read-hub-state.js';
import type { StatusRepositories } from './status-repositories.js';
import { RenderUnavailableError, type RenderRepositories } from './render-repositories.js';
import {
  placeClusterBranches,
  renderSettled,
  settleRender,
  type RenderPlacement,
} from './place-cluster-branches.js';
import { withPublished } from './plan-render-writes.js';
import { readAssignedStatus, withUnreadable } from './read-assigned-status.js';
import type { ReadContext } from './read-git-state.js';
import { readCommitSourceFiles, readSourceCommit } from './read-source-commit.js';
import { findRenderedAlready } from './find-rendered-already.js';
import { hubRefsOf, restoreHubMemo, saveHubMemo } from './hub-memo.js';
import { TextBlobs } from './text-blobs.js';
import { sameClusterHeads } from '../../core/publish/cluster-commit-trailers.js';
import { moveRefsOfPass, writeObjectsOfPass, type HubPassHooks } from './write-hub-pass.js';

export interface HubPassOptions {
  repo: HubRepo;
  /** The source branch: a short name (`main`) or a full ref. */
  sourceRef: string;
  /** Author and committer of the hub's commits. */
  identity: { name: string; email: string };
  /** The time the hub's commits carry. */
  now: () => Date;
  log: Logger;
  /** What the previous passes of this process learned; a fresh cache gives the same result, slower. */
  cache?: HubPassCache;
  /** Render and converge even when the bindings branch says S was rendered already. */
  force?: boolean;
  /** Passes run in all when other writers keep winning the race for the refs (default 5). */
  maxAttempts?: number;
  hooks?: HubPassHooks;
  /** Monotonic milliseconds for the timings (default performance.now). */
  elapsed?: () => number;
  /** Failover settings, memory and the monitor's verdicts (default: Karmada's defaults, no monitor). */
  failover?: HubFailover;
  /** Told as the templates are rendered (a terminal shows it on a long first render). */
  progress?: (done: number, total: number) => void;
  /**
   * Keep the pass cache in `<gitdir>/gitfleet/hub-memo-v2` after each pass that moved refs, and
   * start a fresh cache from it (hub-memo.ts), so a restarted hub costs what changed (default
   * true). `'readOnly'`: start from it, leave the writing to the caller (saveHubMemo).
   * `'deferred'`: start from it, and note on the cache what the memo of this pass would name
   * (memoPending), for the caller to write when it is idle (saveDeferredHubMemo): writing costs
   * about as much CPU as a warm pass of 2,000 × 50 several times over, so a running hub does not
   * pay it after every pass.
   */
  persistMemo?: boolean | 'readOnly' | 'deferred';
  /** The status repositories (status-repositories.ts); absent: every status is in `repo`. */
  statusRepositories?: StatusRepositories;
  /** The render repositories (render-repositories.ts); absent: every cluster branch is in `repo`. */
  renderRepositories?: RenderRepositories;
  /** Signs every commit the hub writes (`--signing-key`; docs/security.md); absent: unsigned. */
  signer?: CommitSigner;
  /** Source verification's keys and mode from the flags (hub-source-gate.ts); absent: the FleetConfig's alone. */
  sourceKeys?: SourceKeyFlags;
  /** Renders the fleet's HelmSources and KustomizeSources (docs/sources.md); absent: a fleet with one fails to load. */
  sourceRenderer?: TemplateSourceRenderer<SourceTree>;
}

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

/**
 * Whether another writer moved a ref first: a local compare-and-swap that found another value
 * or a held lock (GitWriteError RefConflict, RefLocked), or a push the remote rejected because
 * its ref moved (the remote adapter's PushRejected).
 */
function isLostRace(error: unknown): boolean {
  if (error instanceof GitWriteError) return error.code === 'RefConflict' || error.code === 'RefLocked';
  return isGitfleetError(error, 'PushRejected');
}

async function attemptPass(opts: PassAttempt): Promise<HubPassResult> {
  const timer = new PassTimer(opts.elapsed);
  const cache = opts.cache ?? createHubPassCache();
  await opts.repo.refresh();
  const read: ReadContext = { store: openObjectStore(opts.repo.gitdir, cache.packs), cache };
  const { failover } = opts;
  // Whether the statuses moved since the head is checked apart from this: here they are as recorded.
  const failoverCurrent = (head: BindingsHead): boolean =>
    !wakeAtDue(head.wakeAt, opts.now()) && sameJudged(head.judged, passVerdicts(failover, head));
  // With status repositories, the status heads that decide "up to date" are not in `repo`.
  // So are the cluster heads with render repositories (render-repositories.ts).
  const quick =
    !opts.force &&
    (opts.statusRepositories === undefined || opts.statusRepositories.fleetOnly()) &&
    (opts.renderRepositories === undefined || opts.renderRepositories.fleetOnly());
  const signed = (commit: string) =>
    needsSignature({ store: read.store, ...(opts.signer ? { signer: opts.signer } : {}) }, commit);
  const already = quick ? await findRenderedAlready(read, opts.sourceRef, failoverCurrent, signed) : null;
  if (already) {
    timer.mark('readMs');
    return { type: 'upToDate', ...already, timings: timer.done(), attempts: 1 };
  }
  if (opts.persistMemo !== false && !cache.memoRead) {
    cache.memoRead = true;
    await restoreHubMemo(cache, { gitdir: opts.repo.gitdir, log: opts.log });
  }
  const atHead = await readSourceCommit(read, opts.sourceRef);
  timer.mark('readMs');
  const loadFiles = (files: readonly SourceFile[], rendered?: readonly RenderedFile[]) => {
    const loaded = loadFleet(files, {
      sourceBranch: opts.sourceRef,
      ...(cache.loadMemo ? { memo: cache.loadMemo } : {}),
      ...(rendered ? { rendered } : {}),
    });
    cache.loadMemo = loaded.memo;
    return loaded;
  };
  const headLoaded = loadFiles(atHead.files);
  timer.mark('loadMs');
  if (!headLoaded.ok)
    return {
      type: 'loadFailed',
      source: atHead.source,
      errors: headLoaded.errors,
      timings: timer.done(),
      attempts: 1,
    };
  // A head the source verification refuses is not rendered: the last verified commit is, again.
  const gated = await gateSource(opts, {
    read,
    source: atHead.source,
    fleet: headLoaded.fleet,
    load: loadFiles,
  });
  if (gated.type === 'refused') return { ...gated.result, timings: timer.done() };
  const { source } = gated;
  // Template sources are rendered once the source is gated: an unverified chart is never run.
  const rendered = await renderTemplateSources(opts, {
    read,
    source,
    fleet: gated.fleet,
    head: atHead,
    loadFiles,
  });
  if (!rendered.ok)
    return {
      type: 'loadFailed',
      source: atHead.source,
      errors: rendered.errors,
      timings: timer.done(),
      attempts: 1,
    };
  const loadedFleet = rendered.fleet;
  const refusal = gated.refused ? { refused: gated.refused } : {};
  const interpreted = await (cache.interpreter ??= new InterpreterSession()).attach(loadedFleet);
  for (const problem of interpreted.problems) opts.log.warn(problem);
  const fleet = interpreted.fleet;
  assertMirroredPrefix(opts.repo, fleet.config.branchPrefix);
  const { state, placement } = await placeClusterBranches({
    repos: opts.renderRepositories,
    read,
    fleet,
    state: await readAssignedStatus(
      opts.statusRepositories,
      read,
      fleet,
      await readHubState(read, fleet.config.branchPrefix),
    ),
    unwritable: opts.unwritable,
  });
  const verdicts = passVerdicts(failover, state.bindings, {
    statusHeads: state.statusHeads,
    clusters: new Set(fleet.clusters.map((c) => c.name)),
  });
  const { head, lastSource } = state.bindings;
  const statusSeen = sameStatusHeads(state.bindings.lastStatus, state.statusHeads);
  const clustersSeen = clustersAsWritten(state);
  const failoverSeen = failoverCurrent(state.bindings);
  if (
    head !== null &&
    lastSource === source.commit &&
    statusSeen &&
    clustersSeen &&
    failoverSeen &&
    state.bindings.refused.length === 0 &&
    renderSettled(state, placement) &&
    !opts.force &&
    !(await signed(head))
  ) {
    settleRender(opts.renderRepositories, fleet, placement);
    timer.mark('readMs');
    const result = {
      type: 'upToDate',
      source,
      bindingsCommit: head,
      timings: timer.done(),
      attempts: 1,
    } as const;
    return withUnreadable({ ...result, ...refusal }, state);
  }
  return withUnreadable(
    {
      ...(await renderAndWrite({ opts, read, source, fleet, state, timer, failover, verdicts, placement })),
      ...refusal,
    },
    state,
  );
}

/** One attempt's options: the pass's, the failover memory, and the render repositories that refused a write in an earlier attempt. */
type PassAttempt = HubPassOptions & { failover: HubFailover; unwritable: Map<string, string> };

/**
 * Whether every cluster branch is where the hub last left it (trivially so when the bindings
 * branch records none, as one written before these records were kept): a branch someone else
 * moved needs a pass even with no new source commit.
 */
function clustersAsWritten(state: HubState): boolean {
  const recorded = state.bindings.lastClusters;
  return recorded.size === 0 || sameClusterHeads(recorded, state.clusterHeads);
}

/** Steps 4 to 6: render with the previous bindings, plan every branch, write. */
async function renderAndWrite(pass: {
  opts: HubPassOptions;
  read: ReadContext;
  source: SourceCommit;
  fleet: Fleet;
  state: HubState;
  timer: PassTimer;
  failover: HubFailover;
  verdicts: ReadonlyMap<string, ClusterVerdict>;
  placement: RenderPlacement | undefined;
}): Promise<HubPassResult> {
  const { opts, read, source, fleet, state, timer, failover, verdicts, placement } = pass;
  const { render, reports, rollout, failoverWrites, exportDiagnostics } = await planPassRender({
    read,
    fleet,
    state,
    sourceCommit: source.commit,
    now: opts.now(),
    failover,
    verdicts,
    ...(opts.progress ? { progress: opts.progress } : {}),
    onStateRead: () => timer.mark('readMs'),
  });
  timer.mark('renderMs');
  // A fleet gone quiet stops the evictions: said once, when it starts and when it ends.
  for (const d of failoverWrites.decisions) if (d.type === 'FleetDisruption') opts.log.warn(d.message);
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
  const hooks = opts.hooks ? { hooks: opts.hooks } : {};
  const write = {
    repo: opts.repo,
    objects: plan.objects,
    moves: plan.moves,
    known: ctx.known,
    warn: (m: string) => opts.log.warn(m),
    ...hooks,
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
  settleRender(opts.renderRepositories, fleet, placement);
  read.cache.branches = ctx.branches;
  timer.mark('refsMs');
  sweepHubPassCache(read.cache);
  const timings = timer.done();
  // After the refs moved (the pass's effect is out): outside the pass's total, timed on its own.
  if (opts.persistMemo === undefined || opts.persistMemo === true) {
    await saveHubMemo(read.cache, {
      gitdir: opts.repo.gitdir,
      prefix: fleet.config.branchPrefix,
      log: opts.log,
    });
    timings.memoMs = timer.sinceDone();
  } else if (opts.persistMemo === 'deferred') {
    const prefix = fleet.config.branchPrefix;
    read.cache.memoPending = { prefix, refs: await hubRefsOf(opts.repo.gitdir, prefix) };
  }
  return {
    type: 'rendered',
    source,
    clusters: plan.clusters,
    bindings: plan.bindings,
    diagnostics: [
      ...exportDiagnostics,
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

/** The pass's phase timings, each phase adding the time since the previous mark. */
class PassTimer {
  private readonly watch: Stopwatch;
  private readonly timings: PassTimings;

  constructor(elapsed?: () => number) {
    this.watch = new Stopwatch(elapsed);
    this.timings = noTimings();
  }

  mark(phase: Exclude<keyof PassTimings, 'totalMs'>): void {
    this.timings[phase] += this.watch.lap();
  }

  done(): PassTimings {
    this.watch.lap();
    return { ...this.timings, totalMs: this.watch.total() };
  }

  /** Returns the milliseconds since `done` (a step after the pass, timed on its own). */
  sinceDone(): number {
    return this.watch.lap();
  }
}

function signature(opts: HubPassOptions): PassContext['author'] {
  return { ...opts.identity, time: Math.floor(opts.now().getTime() / 1000), tzOffsetMinutes: 0 };
}

/**
 * Throws a terminal error when the repository mirrors another prefix than the FleetConfig's
 * branchPrefix: a remote's mirror fetches and pushes only the branches under the prefix it was
 * opened with (`hub --branch-prefix`), so the hub could neither read nor publish the branches.
 */
function assertMirroredPrefix(repo: HubRepo, branchPrefix: string): void {
  if (repo.branchPrefix === undefined || repo.branchPrefix === branchPrefix) return;
  throw new ConfigError(
    'BranchPrefixMismatch',
    `${repo.description}: the FleetConfig's branchPrefix is ${JSON.stringify(branchPrefix)}, but this ` +
      `hub mirrors the branches under ${JSON.stringify(repo.branchPrefix)}: start it with ` +
      `--branch-prefix ${branchPrefix}`,
  );
}

/** Returns the gated fleet with its template sources rendered into templates (load-with-sources.ts). */
async function renderTemplateSources(
  opts: HubPassOptions,
  input: {
    read: ReadContext;
    source: SourceCommit;
    fleet: Fleet;
    head: { source: SourceCommit; files: SourceFile[] };
    loadFiles: (files: readonly SourceFile[], rendered?: readonly RenderedFile[]) => LoadResult;
  },
): Promise<{ ok: true; fleet: Fleet } | { ok: false; errors: LoadError[] }> {
  const { read, source, fleet } = input;
  if (fleet.templateSources === undefined) return { ok: true, fleet };
  const files =
    source.commit === input.head.source.commit
      ? input.head.files
      : (await readCommitSourceFiles(read, source.commit)).files;
  return loadWithSources({
    files,
    load: input.loadFiles,
    renderer: opts.sourceRenderer,
    tree: () => gitSourceTree(read.store, source.commit),
  });
}
