// The adapters `gitfleet hub` runs on (the composition root of hub.ts): the repository and its
// triggers (a URL gets a fetched mirror, polling and the webhook; a path gets the ref watcher),
// the status and render repositories, the pass cache with its Lua session, the doorbell and the
// leader election. What the process wires around them is loops/hub/hub-process.ts.
import { join } from 'node:path';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import type { RateLimitGates } from '../../adapters/remote/rate-limit-gate.js';
import type { SourceRenderer } from '../../adapters/render-tools/source-renderer.js';
import { InterpreterSession } from '../../adapters/lua/interpreter-session.js';
import type { LuaInterpreterOptions } from '../../adapters/lua/lua-interpreter.js';
import type { Clock } from '../../loops/runtime/clock.js';
import type { Leadership } from '../../loops/runtime/leadership.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { Metrics } from '../../loops/runtime/metrics.js';
import { periodicTrigger, type Trigger } from '../../loops/runtime/trigger.js';
import { localHubRepo, type HubRepo } from '../../adapters/remote/hub-repo.js';
import { watchLocalRefs } from '../../loops/runtime/watch-local-refs.js';
import type { RefSnapshot } from '../../loops/hub/cluster-monitor.js';
import { createHubPassCache } from '../../loops/hub/hub-pass-cache.js';
import type { HubProcessParts } from '../../loops/hub/hub-process.js';
import type { RenderRepositories } from '../../loops/hub/render-repositories.js';
import type { StatusRepositories } from '../../loops/hub/status-repositories.js';
import type { Observability } from '../observability.js';
import { rateLimitGatesFor } from './rate-limit-gates-for.js';
import { remoteHubSetup, type RemoteHubOptions } from './hub-remote-setup.js';
import { hubSideRepositories } from './hub-render-repos.js';
import { startHubDoorbell, type HubDoorbell, type HubDoorbellOptions } from './hub-doorbell.js';
import { withLeadership, type HubLeaderElection } from './hub-leadership.js';
import { hubSignerOf, type HubSigningOptions } from './hub-signing.js';
import { defaultClusterMonitorSettings } from '../../loops/hub/cluster-monitor-rules.js';

/** What buildHubSetup reads of the hub's options. */
export type HubSetupOptions = Omit<RemoteHubOptions, 'signal' | 'onExchange' | 'rateLimits' | 'keyed'>;

/** What openHub reads of the hub's options (hub.ts: HubOptions). */
export interface OpenHubOptions extends HubSetupOptions, HubSigningOptions {
  renderTokenFile?: string;
  lua?: LuaInterpreterOptions;
  sources?: SourceRenderer;
  notify?: HubDoorbellOptions;
  leaderElection?: HubLeaderElection;
  /** The cluster monitor's settings (none with --once): its period is how long a status mirror's read stands at a pass. */
  monitor?: { periodMs: number };
}

/** What the hub works on and what tells it to look again. */
export interface HubSetup {
  repo: HubRepo;
  triggers: Trigger[];
  /** For a remote: what it advertised at the last poll that succeeded, and when (the monitor's view). */
  observe?: () => RefSnapshot | undefined;
}

/**
 * Returns the repository and the triggers for the options: the seam where remote repositories
 * plug in (a URL gets a fetched mirror, polling and the webhook; a path gets the ref watcher).
 */
export async function buildHubSetup(
  opts: HubSetupOptions,
  deps: {
    clock: Clock;
    log: Logger;
    signal?: AbortSignal;
    elapsed?: () => number;
    metrics?: Metrics;
    /** The process's rate-limit gates (default: new ones on the clock, logging to `log`). */
    rateLimits?: RateLimitGates;
    /** Whether a cluster's registration names its key: a remote's mirror fetches its heartbeats. */
    keyed?: (cluster: string) => boolean;
  },
): Promise<HubSetup> {
  if (isRepoUrl(opts.repo)) {
    const metrics = deps.metrics;
    return remoteHubSetup(
      {
        ...opts,
        ...(deps.signal ? { signal: deps.signal } : {}),
        ...(metrics ? { onExchange: (e) => metrics.gitExchange(e) } : {}),
        rateLimits: deps.rateLimits ?? rateLimitGatesFor({ clock: deps.clock, log: deps.log, metrics }),
        ...(deps.keyed ? { keyed: deps.keyed } : {}),
      },
      deps.log,
      deps.elapsed ?? (() => performance.now()),
    );
  }
  const repo = localHubRepo(opts.repo);
  if (opts.once) return { repo, triggers: [] };
  return {
    repo,
    triggers: [
      watchLocalRefs({
        gitdir: repo.gitdir,
        sourceRef: opts.sourceRef,
        branchPrefix: opts.branchPrefix ?? defaultBranchPrefix,
      }),
      periodicTrigger({ clock: deps.clock, intervalMs: opts.intervalMs }),
    ],
  };
}

/** The adapters a hub runs on, and what closes them. */
export interface OpenHub {
  parts: HubProcessParts;
  rateLimits: RateLimitGates;
  bell?: HubDoorbell;
  closeLeaseClient: () => void;
}

/** Returns the hub's adapters: its repository and triggers, the side repositories, the doorbell and the election. */
export async function openHub(
  opts: OpenHubOptions,
  ctx: {
    clock: Clock;
    observe: Observability;
    stopping: AbortController;
    /** The test's monotonic clock, random and leadership (default: performance.now, Math.random, the options' election). */
    deps: { elapsed?: () => number; random?: () => number; leadership?: Leadership };
  },
): Promise<OpenHub> {
  const { clock, observe, stopping, deps } = ctx;
  const log = observe.log;
  const elapsed = deps.elapsed ?? (() => performance.now());
  const repos = await openRepositories(opts, { clock, observe, stopping, elapsed });
  const { setup, statusRepositories, renderRepositories } = repos;
  // The doorbell starts before the election (it wraps the repository the pass writes); it asks later.
  const leads: { now?: Leadership } = {};
  const serving = () => leads.now?.isLeading() ?? false;
  const side = { statusRepositories, renderRepositories };
  const bell = await hubDoorbellOf(opts, setup, { clock, log, serving, ...side });
  const { leadership, close } = await leadershipOrClose(
    opts,
    { clock, random: deps.random ?? Math.random, log },
    deps,
    bell,
  );
  leads.now = leadership;
  // The sources' renders outlive the process, beside the hub memo (docs/sources.md#identity-and-cache).
  opts.sources?.persistIn(join(setup.repo.gitdir, 'gitfleet', 'source-renders'));
  const progress = observe.progress('hub: rendered', 'templates');
  const parts: HubProcessParts = {
    setup,
    repo: bell?.repo ?? setup.repo,
    cache: repos.cache,
    ...side,
    maintenance: repos.maintenance,
    leadership,
    signing: repos.signing,
    signingKeys: repos.signingKeys,
    ...(bell ? { beacons: () => bell.beacons.counts() } : {}),
    ...(opts.sources ? { sourceRenderer: opts.sources } : {}),
    ...(progress ? { progress } : {}),
    clock,
    elapsed,
    log,
  };
  return { parts, rateLimits: repos.rateLimits, ...(bell ? { bell } : {}), closeLeaseClient: close };
}

// The hub's repository with its rate-limit gates and signer, its pass cache, and the side
// repositories (status, render, maintenance) with the clusters' keys they hold.
async function openRepositories(
  opts: OpenHubOptions,
  ctx: { clock: Clock; observe: Observability; stopping: AbortController; elapsed: () => number },
) {
  const { clock, observe, stopping, elapsed } = ctx;
  const log = observe.log;
  // One set of rate-limit gates for every repository the hub reads or writes (docs/git-budget.md#rate-limits).
  const rateLimits = rateLimitGatesFor({ clock, log, metrics: observe.metrics });
  const signing = await hubSignerOf(opts, log);
  // The clusters' keys come with the status repositories, made below from the setup's prefix.
  const keys: { of?: () => ReadonlyMap<string, string | undefined> | undefined } = {};
  const setup = await buildHubSetup(opts, {
    ...{ clock, log, elapsed, rateLimits, signal: stopping.signal, metrics: observe.metrics },
    keyed: (cluster) => keys.of?.()?.get(cluster) !== undefined,
  });
  const cache = createHubPassCache();
  if (opts.lua) cache.interpreter = new InterpreterSession(opts.lua);
  const { statusRepositories, renderRepositories, maintenance } = await hubSideRepositories(
    {
      ...opts,
      ...(setup.repo.branchPrefix ? { branchPrefix: setup.repo.branchPrefix } : {}),
      // The monitor reads every status repository each period and asks for a pass when one moved.
      // Its looks come a period after the last one ended, so a little more than a period apart
      // (46 status repositories take ~1 s): a read stands for two, so that a pass between two
      // looks takes the last one's.
      ...(opts.once ? {} : { statusTrustMs: 2 * (opts.monitor ?? defaultClusterMonitorSettings).periodMs }),
    },
    {
      ...{ log, clock, elapsed, signal: stopping.signal, rateLimits },
      onExchange: (e) => observe.metrics.gitExchange(e),
    },
  );
  const signingKeys = () => statusRepositories.signingKeys();
  keys.of = signingKeys;
  return {
    rateLimits,
    signing,
    setup,
    cache,
    statusRepositories,
    renderRepositories,
    maintenance,
    signingKeys,
  };
}

// The doorbell of the loop (--notify-addr; none with --once), over the repository the pass writes.
async function hubDoorbellOf(
  opts: OpenHubOptions,
  setup: HubSetup,
  deps: Omit<Parameters<typeof startHubDoorbell>[2], 'statusRepositories'> & {
    statusRepositories: StatusRepositories;
    renderRepositories: RenderRepositories;
  },
): Promise<HubDoorbell | undefined> {
  if (!opts.notify || opts.once) return undefined;
  const { renderRepositories, ...rest } = deps;
  return startHubDoorbell(
    {
      ...opts.notify,
      branchPrefix: opts.branchPrefix ?? setup.repo.branchPrefix ?? defaultBranchPrefix,
      render: renderRepositories,
    },
    setup.repo,
    rest,
  );
}

// The election the options ask for; a doorbell already listening is closed when it cannot be made.
async function leadershipOrClose(
  opts: OpenHubOptions,
  deps: Parameters<typeof withLeadership>[1],
  given: Parameters<typeof withLeadership>[2],
  bell: HubDoorbell | undefined,
): ReturnType<typeof withLeadership> {
  return withLeadership(opts, deps, given).catch(async (error: unknown) => {
    await bell?.close();
    throw error;
  });
}
