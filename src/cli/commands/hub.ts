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
import { defaultHubIdentity } from '../../core/apply-plan/hub-identity.js';
import { loopObservability, type Observability } from '../observability.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { systemClock, type Clock } from '../../loops/runtime/clock.js';
import type { Logger, LogLevel } from '../../loops/runtime/logger.js';
import type { FailoverSettings } from '../../core/model/failover.js';
import { hasErrorDiagnostics } from '../../loops/hub/hub-pass-result.js';
import type { Io } from '../io.js';
import { openHub, type OpenHub } from './hub-setup.js';
import { notifyOf, type HubDoorbellOptions } from './hub-doorbell.js';
import { leaderElectionOf, type HubLeaderElection } from './hub-leadership.js';
import { printResult, reportLoopPass, type LoopReporter } from './hub-output.js';
import { PassNews } from '../../loops/hub/pass-news.js';
import type { ClusterMonitorSettings } from '../../loops/hub/cluster-monitor-rules.js';
import { hubProcess, runHubProcess, type HubProcess } from '../../loops/hub/hub-process.js';
import type { HubPassResult } from '../../loops/hub/hub-pass-result.js';
import type { CommitStatusWorker } from '../../loops/hub/commit-status-worker.js';
import type { Readiness } from '../../loops/runtime/readiness.js';
import type { Leadership } from '../../loops/runtime/leadership.js';
import { failoverSettingsOf, followedBranch, hubSpec, monitorSettings } from './hub-spec.js';
import { luaOptionsOf } from '../lua-flags.js';
import { sourceRendererOf } from '../source-renderer-of.js';
import type { SourceRenderer } from '../../adapters/render-tools/source-renderer.js';
import type { LuaInterpreterOptions } from '../../adapters/lua/lua-interpreter.js';
import { hubSigningOf, type HubSigningOptions } from './hub-signing.js';
import { commitStatusOf, hubCommitStatus, nudging, type ForgeStatusOptions } from './hub-commit-status.js';
import {
  deliverOnce,
  notificationsOf,
  startHubNotifications,
  type HubNotificationsOptions,
} from './hub-notifications.js';
import type { NotifyWorker } from '../../loops/hub/notify-worker.js';

/** `gitfleet hub`: parses its command line and runs the hub. */
export const hubCommand = defineCommand({
  spec: hubSpec,
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
        ...(values['status-record-interval'] ? { statusRecordGapMs: values['status-record-interval'] } : {}),
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
  /** `--status-record-interval`: the least time between two bindings commits that only record statuses. */
  statusRecordGapMs?: number;
  /** Serve the agents' doorbell (hub-doorbell.ts; not with --once). */
  notify?: HubDoorbellOptions;
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

/** Runs one pass (--once) or the hub loop; returns the exit code. */
export async function runHub(opts: HubOptions, io: Io, deps: Partial<HubDeps> = {}): Promise<number> {
  const clock = deps.clock ?? systemClock();
  const observe = await loopObservability(opts, io, { speaker: { name: 'hub' }, clock });
  // Stopping aborts the requests in flight, so a remote that hangs cannot hold the hub.
  const stopping = new AbortController();
  const hub = await openHub(opts, { clock, observe, stopping, deps });
  const process = hubProcess({ ...opts, identity: deps.identity ?? defaultIdentity }, hub.parts);
  // Off the passes: nudged after each one, it posts only when the aggregate changes.
  const random = deps.random ?? Math.random;
  const statuses = hubCommitStatus(opts, { ...hub.parts, rateLimits: hub.rateLimits, stopping, random });
  // Started before --once too: it reads only once told of a pass, and --once delivers what it found.
  const { parts } = hub;
  const notifier = startHubNotifications(opts, {
    ...{ repo: parts.repo, setup: parts.setup, clock, log: parts.log, observe, deps, signing: parts.signing },
    ...{ rateLimits: hub.rateLimits, signal: stopping.signal, statusRepositories: parts.statusRepositories },
  });
  if (opts.once)
    return hubOnce(opts, io, { pass: process.pass, log: observe.log, stopping, statuses, notifier });
  return hubLoop(opts, io, { hub, process, statuses, notifier, observe, stopping, deps });
}

// --once: SIGTERM or SIGINT stops it as it stops the loop: the pass in hand finishes or stops at
// its next request (aborted), its locks released on the way out, and the exit code is the
// pass's (1 when it stopped short), never death by the signal with its locks left behind.
async function hubOnce(
  opts: HubOptions,
  io: Io,
  ctx: {
    pass: () => Promise<HubPassResult>;
    log: Logger;
    stopping: AbortController;
    statuses: CommitStatusWorker | undefined;
    notifier: NotifyWorker;
  },
): Promise<number> {
  const offInterrupt = io.onInterrupt?.(() => {
    ctx.log.info('stopping: the pass in hand finishes or stops at its next request');
    ctx.stopping.abort();
  });
  const result = await ctx.pass().finally(() => offInterrupt?.());
  printResult(result, opts.output, io);
  ctx.notifier.passed(result);
  await Promise.all([ctx.statuses?.flush(), deliverOnce(ctx.notifier, ctx.log)]);
  if (result.type === 'loadFailed' || result.refused) return exitCodes.failed;
  return hasErrorDiagnostics(result) ? exitCodes.writtenWithErrors : exitCodes.ok;
}

// The loop: until SIGINT or SIGTERM, its passes printed, its notifier and commit statuses told.
async function hubLoop(
  opts: HubOptions,
  io: Io,
  ctx: {
    hub: OpenHub;
    process: HubProcess;
    statuses: CommitStatusWorker | undefined;
    notifier: NotifyWorker;
    observe: Observability;
    stopping: AbortController;
    deps: Partial<HubDeps>;
  },
): Promise<number> {
  const { hub, observe, deps, statuses, notifier } = ctx;
  const { parts, bell } = hub;
  const { log } = parts;
  const reporter: LoopReporter = { output: opts.output, io, report: observe.report, news: new PassNews() };
  const closeParts = async (): Promise<void> => {
    await notifier.stop();
    hub.closeLeaseClient();
    // Closed however the loop ended: a listening doorbell would keep a failed hub's process alive.
    await bell?.close();
    await statuses?.close();
  };
  // A metrics address in use fails here, after the doorbell, lease client and notifier opened.
  await observe.serve().catch(async (error: unknown) => {
    await closeParts();
    throw error;
  });
  log.info(`watching ${parts.setup.repo.description} (${opts.sourceRef}); press Ctrl-C to stop`);
  const interrupted = io.untilInterrupted().then(() => {
    log.info('stopping');
    ctx.stopping.abort();
  });
  const readiness = deps.readiness ?? observe.readiness;
  await runHubProcess(parts, ctx.process, {
    ...{ stop: interrupted, signal: ctx.stopping.signal, readiness, metrics: observe.metrics },
    random: deps.random ?? Math.random,
    newTerm: () => reporter.news.forget(),
    report: nudging(statuses, (result) => {
      reportLoopPass(result, reporter);
      notifier.passed(result);
    }),
    ...(bell ? { standDown: () => bell.standDown() } : {}),
  }).finally(closeParts);
  readiness.setStopped();
  await observe.close();
  log.info('stopped');
  return exitCodes.ok;
}
