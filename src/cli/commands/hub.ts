// `gitfleet hub`: keep the hub's branches equal to the render of the source branch.
//
//   gitfleet hub --repo <path> [--source-ref main] [--once] [--interval 30s] [--output text|json]
//                [--cluster-monitor-period 5s] [--cluster-monitor-grace-period 40s]
//                [--cluster-startup-grace-period 60s] [--metrics-addr HOST:PORT] [--log-format text|json]
//                [--log-level debug|info|warn|error]
//                [--leader-elect [--leader-elect-kubeconfig FILE] [--leader-elect-resource-namespace NS]
//                 [--leader-elect-resource-name NAME] [--leader-elect-lease-duration 15s]
//                 [--leader-elect-renew-deadline 10s] [--leader-elect-retry-period 2s]]
//                [--lua-call-timeout 1s] [--lua-pass-budget 2m]
//                [--notify-addr HOST:PORT --notify-tokens FILE]
//
// Exit codes of --once (exit-codes.ts): 0 the pass succeeded with no error diagnostics; 1 the source does not
// load or the pass failed (nothing written); 3 the pass was written but carries error
// diagnostics (a refused mass deletion, a template that fits no cluster, a failing override):
// what could be rendered was, and what could not kept its last good state.
// Without --once the hub runs until SIGINT or SIGTERM (exit 0), after the pass in hand, with
// the cluster monitor (loops/hub/cluster-monitor.ts) judging the clusters whose agents stopped
// reporting; --once has no monitor, and judges no one. SIGINT or SIGTERM during --once stops its
// pass as the loop's, with the pass's exit code.
import { join } from 'node:path';
import { forgeDefaults } from '../forge-profile.js';
import { defaultHubIdentity } from '../../core/apply-plan/hub-identity.js';
import { loopObservability } from '../observability.js';
import type { Metrics } from '../../loops/runtime/metrics.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { systemClock, type Clock } from '../../loops/runtime/clock.js';
import type { Logger, LogLevel } from '../../loops/runtime/logger.js';
import { periodicTrigger, type Trigger } from '../../loops/runtime/trigger.js';
import { createHubPassCache } from '../../loops/hub/hub-pass-cache.js';
import { repoMaintenance, withRepoMaintenance } from '../../loops/runtime/repo-maintenance.js';
import { runHubLoop } from '../../loops/hub/hub-loop.js';
import { runHubPass } from '../../loops/hub/hub-pass.js';
import { hubSideRepositories } from './hub-render-repos.js';
import { saveDeferredHubMemo } from '../../loops/hub/hub-memo.js';
import type { FailoverSettings } from '../../core/model/failover.js';
import { hasErrorDiagnostics } from '../../loops/hub/hub-pass-result.js';
import { localHubRepo, type HubRepo } from '../../adapters/remote/hub-repo.js';
import { watchLocalRefs } from '../../loops/runtime/watch-local-refs.js';
import type { Io } from '../io.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { rateLimitGatesFor } from './rate-limit-gates-for.js';
import type { RateLimitGates } from '../../adapters/remote/rate-limit-gate.js';
import { remoteHubSetup } from './hub-remote-setup.js';
import { notifyOf, startHubDoorbell, type HubDoorbellOptions } from './hub-doorbell.js';
import { leaderElectionOf, withLeadership, type HubLeaderElection } from './hub-leadership.js';
import { printResult, reportLoopPass, type LoopReporter } from './hub-output.js';
import { clusterMonitor, type RefSnapshot } from '../../loops/hub/cluster-monitor.js';
import {
  defaultClusterMonitorSettings,
  type ClusterMonitorSettings,
} from '../../loops/hub/cluster-monitor-rules.js';
import { defaultHubFailover, type HubFailover } from '../../loops/hub/hub-failover.js';
import type { Leadership } from '../../loops/runtime/leadership.js';
import type { Readiness } from '../../loops/runtime/readiness.js';
import { assertLeading, whileLeading } from '../../loops/runtime/while-leading.js';
import { failoverSettingsOf, followedBranch, hubSpec, monitorSettings } from './hub-spec.js';
import { luaOptionsOf } from '../lua-flags.js';
import { sourceRendererOf } from '../source-flags.js';
import type { SourceRenderer } from '../../adapters/render-tools/source-renderer.js';
import { InterpreterSession } from '../../adapters/lua/interpreter-session.js';
import type { LuaInterpreterOptions } from '../../adapters/lua/lua-interpreter.js';
import { hubSignerOf, hubSigningOf, type HubSigningOptions } from './hub-signing.js';
import { commitStatusOf, hubCommitStatus, nudging, type ForgeStatusOptions } from './hub-commit-status.js';
import { notificationsOf, startHubNotifications, type HubNotificationsOptions } from './hub-notifications.js';

/** `gitfleet hub`: parses its command line and runs the hub. */
export const hubCommand = defineCommand({
  spec: hubSpec,
  defaults: forgeDefaults('hub'),
  run: ({ values }, io) =>
    runHub(
      {
        repo: values.repo,
        sourceRef: followedBranch(values['source-ref']),
        once: values.once,
        intervalMs: values.interval,
        output: values.output,
        monitor: monitorSettings({
          periodMs: values['cluster-monitor-period'],
          gracePeriodMs: values['cluster-monitor-grace-period'],
          startupGracePeriodMs: values['cluster-startup-grace-period'],
          successThresholdMs: values['cluster-success-threshold'],
        }),
        ...(values['token-file'] !== undefined ? { tokenFile: values['token-file'] } : {}),
        ...(values['render-token-file'] ? { renderTokenFile: values['render-token-file'] } : {}),
        ...(values['cache-dir'] !== undefined ? { cacheDir: values['cache-dir'] } : {}),
        ...(values['webhook-port'] !== undefined ? { webhookPort: values['webhook-port'] } : {}),
        ...(values['webhook-addr'] !== undefined ? { webhookAddr: values['webhook-addr'] } : {}),
        ...(values['branch-prefix'] !== undefined ? { branchPrefix: values['branch-prefix'] } : {}),
        ...(values['webhook-secret-file'] !== undefined
          ? { webhookSecretFile: values['webhook-secret-file'] }
          : {}),
        ...(values['metrics-addr'] !== undefined ? { metricsAddr: values['metrics-addr'] } : {}),
        ...notifyOf(values),
        logFormat: values['log-format'],
        logLevel: values['log-level'],
        lua: luaOptionsOf(values),
        sources: sourceRendererOf(values),
        failover: failoverSettingsOf(values),
        ...leaderElectionOf(values),
        ...hubSigningOf(values),
        ...commitStatusOf(values),
        ...notificationsOf(values),
      },
      io,
    ),
});

export interface HubOptions extends HubSigningOptions, ForgeStatusOptions, HubNotificationsOptions {
  /** A local path (bare or not) or an http(s) URL. */
  repo: string;
  /** For URLs: a file holding the token (else $GITFLEET_GIT_TOKEN). */
  tokenFile?: string;
  /** For render repositories' URLs: a file holding their token (default: tokenFile's). */
  renderTokenFile?: string;
  /** For URLs: where the mirror lives (default ~/.cache/gitfleet/mirrors). */
  cacheDir?: string;
  /** For URLs: serve the push webhook on this port. */
  webhookPort?: number;
  /** For URLs: the webhook's bind address (default 127.0.0.1; 0.0.0.0 in a Pod). */
  webhookAddr?: string;
  webhookSecretFile?: string;
  /** For URLs: the prefix of the hub's branches, which the mirror holds (the FleetConfig's branchPrefix). */
  branchPrefix?: string;
  sourceRef: string;
  once: boolean;
  /** Resync period of the loop. */
  intervalMs: number;
  output: 'text' | 'json';
  /** The failover flags (default: defaultFailoverSettings). */
  failover?: FailoverSettings;
  /** The cluster monitor's settings (default: Karmada's); unused with --once. */
  monitor?: ClusterMonitorSettings;
  /** Serve /metrics, /healthz and /readyz here (not with --once). */
  metricsAddr?: string;
  logFormat?: 'text' | 'json';
  /** The least severe log lines shown (default info; a pass that changed nothing is debug). */
  logLevel?: LogLevel;
  /** Run passes only while holding this Lease (--leader-elect); absent: always. */
  leaderElection?: HubLeaderElection;
  /** The Lua budgets (--lua-call-timeout, --lua-pass-budget; default: adapters/lua's). */
  lua?: LuaInterpreterOptions;
  /** Renders the fleet's template sources (--helm, --kustomize, --render-timeout; docs/sources.md). */
  sources?: SourceRenderer;
  /** Serve the agents' doorbell (hub-doorbell.ts; not with --once). */
  notify?: HubDoorbellOptions;
}

/** What the hub works on and what tells it to look again. */
export interface HubSetup {
  repo: HubRepo;
  triggers: Trigger[];
  /** For a remote: what it advertised at the last poll that succeeded, and when (the monitor's view). */
  observe?: () => RefSnapshot | undefined;
}

/** What the command takes from its environment; tests replace the clock. */
export interface HubDeps {
  clock: Clock;
  /** The monotonic clock of the cluster monitor, in milliseconds (default: performance.now). */
  elapsed: () => number;
  random: () => number;
  identity: { name: string; email: string };
  /** Told when this replica starts or stops leading (served on /readyz). */
  readiness: Readiness;
  /** Replaces the election the options ask for (tests). */
  leadership: Leadership;
}

const defaultIdentity = defaultHubIdentity;

/**
 * Returns the repository and the triggers for the options: the seam where remote repositories
 * plug in (a URL gets a fetched mirror, polling and the webhook; a path gets the ref watcher).
 */
export async function buildHubSetup(
  opts: HubOptions,
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

/** Runs one pass (--once) or the hub loop; returns the exit code. */
export async function runHub(opts: HubOptions, io: Io, deps: Partial<HubDeps> = {}): Promise<number> {
  const clock = deps.clock ?? systemClock();
  const observe = loopObservability(opts, io, { speaker: { name: 'hub' }, clock });
  const log = observe.log;
  // Stopping aborts the requests in flight, so a remote that hangs cannot hold the hub.
  const stopping = new AbortController();
  const elapsed = deps.elapsed ?? (() => performance.now());
  // One set of rate-limit gates for every repository the hub reads or writes (docs/git-budget.md#rate-limits).
  const rateLimits = rateLimitGatesFor({ clock, log, metrics: observe.metrics });
  const signing = await hubSignerOf(opts, log);
  // The clusters' keys come with the status repositories, made below from the setup's prefix.
  const keys: { of?: () => ReadonlyMap<string, string | undefined> | undefined } = {};
  const setup = await buildHubSetup(opts, {
    clock,
    log,
    signal: stopping.signal,
    elapsed,
    metrics: observe.metrics,
    rateLimits,
    keyed: (cluster) => keys.of?.()?.get(cluster) !== undefined,
  });
  const cache = createHubPassCache();
  if (opts.lua) cache.interpreter = new InterpreterSession(opts.lua);
  const { statusRepositories, renderRepositories, maintenance } = await hubSideRepositories(
    { ...opts, ...(setup.repo.branchPrefix ? { branchPrefix: setup.repo.branchPrefix } : {}) },
    { log, clock, signal: stopping.signal, onExchange: (e) => observe.metrics.gitExchange(e), rateLimits },
  );
  keys.of = () => statusRepositories.signingKeys();
  // The doorbell starts before the election (it wraps the repository the pass writes); it asks later.
  const leads: { now?: Leadership } = {};
  const bell =
    opts.notify && !opts.once
      ? await startHubDoorbell(
          {
            ...opts.notify,
            branchPrefix: opts.branchPrefix ?? setup.repo.branchPrefix ?? defaultBranchPrefix,
            render: renderRepositories,
          },
          setup.repo,
          { clock, log, serving: () => leads.now?.isLeading() ?? false, statusRepositories },
        )
      : undefined;
  const repo = bell?.repo ?? setup.repo;
  const settings = opts.monitor ?? defaultClusterMonitorSettings;
  const monitor = opts.once
    ? undefined
    : clusterMonitor({
        gitdir: setup.repo.gitdir,
        branchPrefix: opts.branchPrefix ?? setup.repo.branchPrefix ?? defaultBranchPrefix,
        settings,
        elapsed,
        clock,
        log,
        statusRepositories,
        renderRepositories,
        signingKeys: keys.of,
        ...(bell ? { beacons: () => bell.beacons.counts() } : {}),
        // A remote is seen at each poll (--interval): only a gap of two polls is blindness.
        ...(setup.observe
          ? {
              observe: setup.observe,
              blindAfterMs: Math.max(settings.gracePeriodMs, 2 * opts.intervalMs),
            }
          : {}),
      });
  // One failover memory for the process: the rate limit's last eviction outlives a pass.
  const failover: HubFailover = {
    ...defaultHubFailover(),
    ...(opts.failover ? { settings: opts.failover } : {}),
    ...(monitor ? { verdicts: () => monitor.verdicts(), judging: () => monitor.judging() } : {}),
  };
  const { leadership, close: closeLeaseClient } = await withLeadership(
    opts,
    { clock, random: deps.random ?? Math.random, log },
    deps,
  ).catch(async (error: unknown) => {
    await bell?.close();
    throw error;
  });
  leads.now = leadership;
  // The sources' renders outlive the process, beside the hub memo (docs/sources.md#identity-and-cache).
  opts.sources?.persistIn(join(setup.repo.gitdir, 'gitfleet', 'source-renders'));
  const progress = observe.progress('hub: rendered', 'templates');
  const pass = withRepoMaintenance(
    () =>
      runHubPass({
        ...(progress ? { progress } : {}),
        repo,
        sourceRef: opts.sourceRef,
        identity: deps.identity ?? defaultIdentity,
        now: () => new Date(clock.now()),
        log,
        cache,
        ...(opts.sources ? { sourceRenderer: opts.sources } : {}),
        failover,
        statusRepositories,
        renderRepositories,
        ...signing,
        // --once writes the memo after its pass; the loop when it is idle (hub-loop.ts).
        persistMemo: opts.once ? true : 'deferred',
        // The last look before the refs move: a replica whose renewal is overdue moves none.
        ...(leadership.elected
          ? {
              hooks: {
                afterObjectsWritten: () => assertLeading(leadership, 'hub', 'this pass moved no ref'),
              },
            }
          : {}),
      }),
    // The maintenance of the repository the hub writes (or of its mirror), between its passes.
    repoMaintenance({ gitdir: setup.repo.gitdir, packCache: cache.packs, clock, log, elapsed }),
  );
  const maintainedPass = withRepoMaintenance(pass, maintenance);
  // Off the passes: nudged after each one, it posts only when the aggregate changes.
  const parts = { setup, clock, log, rateLimits, stopping, random: deps.random ?? Math.random };
  const statuses = hubCommitStatus(opts, { ...parts, statusRepositories, renderRepositories });
  if (opts.once) {
    // SIGTERM or SIGINT stops --once as it stops the loop: the pass in hand finishes or stops at
    // its next request (aborted), its locks released on the way out, and the exit code is the
    // pass's (1 when it stopped short), never death by the signal with its locks left behind.
    const offInterrupt = io.onInterrupt?.(() => {
      log.info('stopping: the pass in hand finishes or stops at its next request');
      stopping.abort();
    });
    const result = await maintainedPass().finally(() => offInterrupt?.());
    printResult(result, opts.output, io);
    await statuses?.flush();
    if (result.type === 'loadFailed' || result.refused) return exitCodes.failed;
    return hasErrorDiagnostics(result) ? exitCodes.writtenWithErrors : exitCodes.ok;
  }
  const reporter: LoopReporter = { output: opts.output, io, report: observe.report };
  const notifier = startHubNotifications(opts, { repo, setup, clock, log, observe, deps, signing });
  await observe.serve();
  log.info(`watching ${setup.repo.description} (${opts.sourceRef}); press Ctrl-C to stop`);
  const interrupted = io.untilInterrupted().then(() => {
    log.info('stopping');
    stopping.abort();
  });
  const readiness = deps.readiness ?? observe.readiness;
  const leading = { leadership, log, stop: interrupted, signal: stopping.signal, readiness };
  await whileLeading(leading, (stop) => {
    // A new term starts from what the branches say now, not from what this replica last wrote.
    delete reporter.last;
    return runHubLoop({
      pass: maintainedPass,
      triggers: monitor ? [...setup.triggers, monitor] : setup.triggers,
      clock,
      random: deps.random ?? Math.random,
      log,
      metrics: observe.metrics,
      readiness,
      stop,
      saveMemo: () => saveDeferredHubMemo(cache, { gitdir: setup.repo.gitdir, log }),
      report: nudging(statuses, (result) => {
        reportLoopPass(result, reporter);
        notifier.passed(result);
      }),
      // A replica that stops leading sends its held agents back to polling (503).
    }).finally(() => bell?.standDown());
  }).finally(async () => {
    await notifier.stop();
    closeLeaseClient();
    // Closed however the loop ended: a listening doorbell would keep a failed hub's process alive.
    await bell?.close();
    await statuses?.close();
  });
  readiness.setStopped();
  await observe.close();
  log.info('stopped');
  return exitCodes.ok;
}
