// `gitfleet agent`: keep one member cluster equal to its cluster branch and report back to Git.
//
//   gitfleet agent --repo <path> --cluster NAME [--kubeconfig FILE] [--context C] [--once]
//                  [--interval 30s] [--branch-prefix gitfleet/] [--allow-deletions] [--output text|json]
//                  [--token-file F] [--status-repo URL|PATH] [--status-token-file F] [--cache-dir D] [--branch-poll 1s] [--export-coalesce 1s]
//                  [--cluster-status-update-frequency 10s] [--cluster-lease-duration 40s]
//                  [--cluster-lease-renew-interval-fraction 0.25] [--metrics-addr HOST:PORT]
//                  [--log-format text|json] [--log-level info] [--notify-url URL --notify-token-file FILE [--safety-poll 5m]
//                  [--doorbell-heartbeat D]] [--push-spread 0s]
//                  [--no-lease] [--lease-namespace gitfleet-system] [--lease-duration 15s]
//                  [--lease-renew-deadline 10s] [--lease-retry-period 2s]
//
// Exit codes of --once: 0 the branch's head is fully applied (every object applied, nothing
// left to prune) and its status written; 1 something failed (an object, a deletion, a refused
// mass deletion, Git or the cluster unreachable); 2 usage; 3 the branch does not exist yet;
// 4 the branch is tombstoned (exit-codes.ts). Without --once the agent runs until SIGINT or
// SIGTERM (exit 0), and renews its heartbeat ref every lease duration × renew fraction
// (loops/agent/heartbeat.ts); --once writes no heartbeat.
//
// One agent per cluster (docs/production.md#one-agent-per-cluster): the loop applies and
// writes status only while it holds the Lease gitfleet-agent-<cluster> in the cluster it
// applies to; a second agent for the same cluster stands by and takes over when the first
// releases it (a clean stop) or stops renewing it. --no-lease opts out; --once takes no lease (a
// pass run by hand needs no RBAC for Leases).
import { loopObservability, type Observability } from '../observability.js';
import { UsageError } from '../usage-error.js';
import { KubeClient } from '../../adapters/kube/kube-client.js';
import { loadKubeConfig } from '../../adapters/kube/load-kube-config.js';
import { agentLeadership, agentLeaseOf, type AgentLease } from './agent-lease.js';
import type { Leadership } from '../../loops/runtime/leadership.js';
import {
  agentPassOptionsOf,
  runAgentProcess,
  type AgentPassAdapters,
  type AgentProcessParts,
  type AgentProcessSettings,
} from '../../loops/agent/agent-process.js';
import { kubeClusterApi } from '../../loops/agent/kube-cluster-api.js';
import { clusterBranchRef } from '../../loops/agent/agent-repo.js';
import {
  agentDoorbellOf,
  agentWaiting,
  type AgentDoorbellOptions,
  type AgentWaiting,
} from './agent-doorbell.js';
import {
  defaultHeartbeatSettings,
  renewIntervalMs,
  type HeartbeatSettings,
} from '../../loops/agent/heartbeat.js';
import { rateLimitGatesFor } from './rate-limit-gates-for.js';
import { openAgentRepo } from './agent-render-repo.js';
import { agentStatusRepos } from './agent-status-repos.js';
import { agentPushPacer } from './agent-pacing.js';
import {
  runAgentPass,
  type AgentPassOptions,
  type AgentPassResult,
} from '../../loops/agent/run-agent-pass.js';
import { watchLocalRefs } from '../../loops/runtime/watch-local-refs.js';
import { systemClock, type Clock } from '../../loops/runtime/clock.js';
import type { LogLevel } from '../../loops/runtime/logger.js';
import type { GitExchangeReport } from '../../loops/runtime/metrics.js';
import { periodicTrigger } from '../../loops/runtime/trigger.js';
import type { Io } from '../io.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { escapeText } from '../../core/model/quote-text.js';
import { agentSpec, defaultStatusUpdateFrequencyMs, isClusterName, isFleetIdentity } from './agent-spec.js';
import { print, reportLoopPass, type AgentReporter } from './agent-pass-output.js';
import { agentKeysOf, agentSigningOf, type AgentSigningOptions } from './agent-signing.js';
import { agentSecretsFor, agentSecretsOf, type AgentSecretsOptions } from './agent-secrets.js';

/** `gitfleet agent`: parses its command line and runs the agent. */
export const agentCommand = defineCommand({
  spec: agentSpec,
  run: ({ values }, io) => {
    if (!isClusterName(values.cluster)) {
      throw new UsageError(
        `--cluster NAME must be a DNS label, as cluster names are, not '${escapeText(values.cluster)}'`,
      );
    }
    if (values.fleet !== undefined && !isFleetIdentity(values.fleet)) {
      throw new UsageError(
        `--fleet ID must be a label value (at most 63 letters, digits, '-', '_' or '.'), not '${escapeText(values.fleet)}'`,
      );
    }
    return runAgent(
      {
        repo: values.repo,
        cluster: values.cluster,
        ...(values.fleet !== undefined ? { fleet: values.fleet } : {}),
        ...(values.kubeconfig ? { kubeconfig: values.kubeconfig } : {}),
        ...(values.context ? { context: values.context } : {}),
        once: values.once,
        intervalMs: values.interval,
        branchPollMs: values['branch-poll'],
        ...agentDoorbellOf(values),
        ...(values['push-spread'] !== undefined ? { pushSpreadMs: values['push-spread'] } : {}),
        exportCoalesceMs: values['export-coalesce'],
        branchPrefix: values['branch-prefix'],
        allowDeletions: values['allow-deletions'],
        returnPruneTimeoutMs: values['return-prune-timeout'],
        statusUpdateFrequencyMs: values['cluster-status-update-frequency'],
        heartbeat: {
          leaseDurationMs: values['cluster-lease-duration'],
          renewIntervalFraction: values['cluster-lease-renew-interval-fraction'],
        },
        ...(values['token-file'] ? { tokenFile: values['token-file'] } : {}),
        ...(values['status-repo'] ? { statusRepo: values['status-repo'] } : {}),
        ...(values['status-token-file'] ? { statusTokenFile: values['status-token-file'] } : {}),
        ...(values['render-repo'] ? { renderRepo: values['render-repo'] } : {}),
        ...(values['render-token-file'] ? { renderTokenFile: values['render-token-file'] } : {}),
        ...(values['cache-dir'] ? { cacheDir: values['cache-dir'] } : {}),
        output: values.output,
        ...agentLeaseOf(values),
        ...(values['metrics-addr'] ? { metricsAddr: values['metrics-addr'] } : {}),
        logFormat: values['log-format'],
        ...agentSigningOf(values),
        ...agentSecretsOf(values),
        logLevel: values['log-level'],
      },
      io,
    );
  },
});

export interface AgentOptions extends AgentSigningOptions, AgentSecretsOptions {
  repo: string;
  cluster: string;
  /** The fleet's identity (default: the root commit of the cluster branch). */
  fleet?: string;
  kubeconfig?: string;
  context?: string;
  once: boolean;
  intervalMs: number;
  /** With a remote repository: how often the cluster branch's position is asked for (default 1 s). */
  branchPollMs?: number;
  /** With a remote repository: the hub's doorbell (agent-doorbell.ts). */
  doorbell?: AgentDoorbellOptions;
  /** `--push-spread`: paces status and heartbeat pushes without the hub's slots (agent-pacing.ts). */
  pushSpreadMs?: number;
  /** The coalescing window of exported EndpointSlice changes (multi-cluster services). */
  exportCoalesceMs?: number;
  branchPrefix: string;
  allowDeletions: boolean;
  /** How long deletions wait for the hub after a return (default 5 min). */
  returnPruneTimeoutMs?: number;
  output: 'text' | 'json';
  /** For URLs: a file holding the token (else $GITFLEET_GIT_TOKEN). */
  tokenFile?: string;
  /** For URLs: where the mirror lives (default: mirror-cache-dir.ts, as the hub's). */
  cacheDir?: string;
  /** `--status-repo`: where status and heartbeat go, over the branch's .gitfleet/status-repository. */
  statusRepo?: string;
  /** `--status-token-file`: the status repository's token (default: tokenFile's). */
  statusTokenFile?: string;
  /** `--render-repo`, `--render-token-file`: where to read the cluster branch (agent-render-repo.ts). */
  renderRepo?: string;
  renderTokenFile?: string;
  /** How old the cluster's facts may be before a pass reads them again (default 10 s). */
  statusUpdateFrequencyMs?: number;
  /** The heartbeat's lease (default: Karmada's, renewed every 10 s). */
  heartbeat?: HeartbeatSettings;
  /** Serve /metrics, /healthz and /readyz here (not with --once). */
  metricsAddr?: string;
  logFormat?: 'text' | 'json';
  /** The least severe log lines shown (default info; a pass that did nothing is debug). */
  logLevel?: LogLevel;
  /** The loop's Lease in the cluster (one agent per cluster); absent: none (--no-lease, --once). */
  lease?: AgentLease;
}

/** Runs one pass (--once) or the agent loop; returns the exit code. */
export async function runAgent(opts: AgentOptions, io: Io): Promise<number> {
  // Stopping aborts the requests to Git in flight, so a remote that hangs cannot hold the agent.
  const stopping = new AbortController();
  const clock = systemClock();
  // Its lines start with `agent <cluster>:`.
  const observe = await loopObservability(opts, io, {
    speaker: { name: 'agent', cluster: opts.cluster },
    clock,
  });
  const log = observe.log;
  const git = {
    signal: stopping.signal,
    onWarning: (m: string) => log.warn(m),
    onExchange: (e: GitExchangeReport) => observe.metrics.gitExchange(e),
    // One set of rate-limit gates for the fleet and status repositories (docs/git-budget.md#rate-limits).
    rateLimits: rateLimitGatesFor({ clock, log, metrics: observe.metrics }),
  };
  const remote = await openAgentRepo({ ...opts, ...git, log });
  const heartbeatMs = renewIntervalMs(opts.heartbeat ?? defaultHeartbeatSettings);
  const waiting = await agentWaiting(
    remote,
    { ...opts, branchPollMs: opts.branchPollMs ?? 1000, beaconIntervalMs: heartbeatMs },
    { clock, log, random: Math.random },
  );
  const client = await kubeClientOf(opts);
  const clusterApi = kubeClusterApi(client);
  const progress = observe.progress(`agent ${opts.cluster}: applied`, 'objects');
  const settings = processSettingsOf(opts);
  const adapters: AgentPassAdapters = {
    repo: waiting.repo,
    fleetRepo: () => remote.fleetRepo(),
    client: clusterApi,
    statusRepos: agentStatusRepos({ ...opts, ...git }),
    ...(progress ? { progress } : {}),
    ...(await agentKeysOf(opts, log)),
    ...(await agentSecretsFor(opts, clusterApi, log)),
  };
  const passOptions = agentPassOptionsOf(settings, adapters, { clock, log });
  try {
    if (opts.once) {
      const result = await runAgentPass(passOptions);
      print(result, opts.output, io);
      return exitCode(result);
    }
    const leadership = agentLeadership(opts, client, clock, observe.log);
    return await loop(opts, io, { settings, passOptions, waiting, clock, stopping, observe, leadership });
  } finally {
    client.close();
  }
}

// The member cluster's client, from --kubeconfig and --context (default: the usual lookup).
async function kubeClientOf(opts: AgentOptions): Promise<KubeClient> {
  const credentials = await loadKubeConfig({
    ...(opts.kubeconfig ? { kubeconfig: opts.kubeconfig } : {}),
    ...(opts.context ? { context: opts.context } : {}),
  });
  return KubeClient.fromKubeConfig(credentials.kc, {
    ...(credentials.bearerToken ? { bearerToken: credentials.bearerToken } : {}),
  });
}

function processSettingsOf(opts: AgentOptions): AgentProcessSettings {
  return { ...opts, statusUpdateFrequencyMs: opts.statusUpdateFrequencyMs ?? defaultStatusUpdateFrequencyMs };
}

// The loop: until SIGINT or SIGTERM, its passes printed and its doorbell told.
async function loop(
  opts: AgentOptions,
  io: Io,
  deps: {
    settings: AgentProcessSettings;
    passOptions: AgentPassOptions;
    waiting: AgentWaiting;
    clock: Clock;
    stopping: AbortController;
    leadership: Leadership;
    observe: Observability;
  },
): Promise<number> {
  const { observe, waiting, clock } = deps;
  const log = observe.log;
  const ref = clusterBranchRef(opts.branchPrefix, opts.cluster);
  // The loop's timers do not hold the process; this does, until it is stopped.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const reporter: AgentReporter = {
    output: opts.output,
    io,
    jsonLogs: observe.json,
    log,
    report: observe.report,
  };
  const interrupted = io.untilInterrupted().then(() => deps.stopping.abort());
  const pacer = agentPushPacer(opts, waiting, clock);
  const parts: AgentProcessParts = {
    passOptions: deps.passOptions,
    triggers: (passOptions) => [
      watchLocalRefs({ gitdir: passOptions.repo.gitdir, sourceRef: ref }),
      periodicTrigger({ clock, intervalMs: opts.intervalMs }),
      ...waiting.triggers(),
    ],
    stretchedMs: waiting.stretchedMs,
    leadership: deps.leadership,
    ...(pacer ? { pacer } : {}),
    clock,
    log,
  };
  try {
    await observe.serve();
    log.info(`following ${ref} in ${opts.repo}; press Ctrl-C to stop`);
    await runAgentProcess(deps.settings, parts, {
      ...{ stop: interrupted, signal: deps.stopping.signal },
      ...{ readiness: observe.readiness, metrics: observe.metrics },
      report: (result) => {
        waiting.passed(result);
        reportLoopPass(result, reporter);
      },
    });
  } finally {
    clearInterval(keepAlive);
    await observe.close();
  }
  log.info('stopped');
  return exitCodes.ok;
}

/** Returns the exit code of a --once pass (see the header). */
export function exitCode(result: AgentPassResult): number {
  if (result.type === 'noBranch') return exitCodes.noClusterBranch;
  if (result.type === 'tombstoned') return exitCodes.tombstoned;
  const written = result.status.problem === undefined;
  return result.fullyApplied && result.gitReachable && written ? exitCodes.ok : exitCodes.failed;
}
