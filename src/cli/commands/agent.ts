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
import { forgeDefaults } from '../forge-profile.js';
import { loopObservability, type Observability } from '../observability.js';
import { UsageError } from '../usage-error.js';
import { defaultDeletionGuard } from '../../core/model/mass-deletion-guard.js';
import { KubeClient } from '../../adapters/kube/kube-client.js';
import { loadKubeConfig } from '../../adapters/kube/load-kube-config.js';
import { agentLeadership, agentLeaseOf, type AgentLease } from './agent-lease.js';
import type { Leadership } from '../../loops/runtime/leadership.js';
import { assertLeading, whileLeading } from '../../loops/runtime/while-leading.js';
import { createAgentMemory } from '../../loops/agent/agent-memory.js';
import { runAgentLoop } from '../../loops/agent/agent-loop.js';
import type { ClusterApi } from '../../loops/agent/cluster-api.js';
import { kubeClusterApi } from '../../loops/agent/kube-cluster-api.js';
import { clusterBranchRef } from '../../loops/agent/agent-repo.js';
import {
  agentDoorbellOf,
  agentWaiting,
  type AgentDoorbellOptions,
  type AgentWaiting,
} from './agent-doorbell.js';
import { heartbeatRef } from '../../core/publish/hub-refs.js';
import {
  defaultHeartbeatSettings,
  renewIntervalMs,
  writeHeartbeat,
  type HeartbeatSettings,
} from '../../loops/agent/heartbeat.js';
import { rateLimitGatesFor } from './rate-limit-gates-for.js';
import { agentPassWithMaintenance, openAgentRepo } from './agent-render-repo.js';
import { agentStatusRepos } from './agent-status-repos.js';
import { agentPushPacer } from './agent-pacing.js';
import { heartbeatRepo } from '../../loops/agent/status-target.js';
import {
  runAgentPass,
  type AgentPassOptions,
  type AgentPassResult,
} from '../../loops/agent/run-agent-pass.js';
import { watchLocalRefs } from '../../loops/runtime/watch-local-refs.js';
import { systemClock } from '../../loops/runtime/clock.js';
import type { LogLevel } from '../../loops/runtime/logger.js';
import { periodicTrigger } from '../../loops/runtime/trigger.js';
import type { Io } from '../io.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { escapeText } from '../../core/model/quote-text.js';
import { agentSpec, defaultStatusUpdateFrequencyMs, isClusterName, isFleetIdentity } from './agent-spec.js';
import { defaultApplyConcurrency } from '../../loops/agent/apply-staged.js';
import { print, reportLoopPass, type AgentReporter } from './agent-pass-output.js';
import { agentKeysOf, agentSigningOf, type AgentSigningOptions } from './agent-signing.js';
import { agentSecretsFor, agentSecretsOf, type AgentSecretsOptions } from './agent-secrets.js';

/** `gitfleet agent`: parses its command line and runs the agent. */
export const agentCommand = defineCommand({
  spec: agentSpec,
  defaults: forgeDefaults('agent'),
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
  const observe = loopObservability(opts, io, { speaker: { name: 'agent', cluster: opts.cluster }, clock });
  const log = observe.log;
  // One set of rate-limit gates for the fleet and status repositories (docs/git-budget.md#rate-limits).
  const rateLimits = rateLimitGatesFor({ clock, log, metrics: observe.metrics });
  const remote = await openAgentRepo({
    ...opts,
    signal: stopping.signal,
    onWarning: (m) => log.warn(m),
    onExchange: (e) => observe.metrics.gitExchange(e),
    rateLimits,
    log,
  });
  const heartbeatMs = renewIntervalMs(opts.heartbeat ?? defaultHeartbeatSettings);
  const waiting = await agentWaiting(
    remote,
    { ...opts, branchPollMs: opts.branchPollMs ?? 1000, beaconIntervalMs: heartbeatMs },
    { clock, log, random: Math.random },
  );
  const repo = waiting.repo;
  const credentials = await loadKubeConfig({
    ...(opts.kubeconfig ? { kubeconfig: opts.kubeconfig } : {}),
    ...(opts.context ? { context: opts.context } : {}),
  });
  const client = KubeClient.fromKubeConfig(credentials.kc, {
    ...(credentials.bearerToken ? { bearerToken: credentials.bearerToken } : {}),
  });
  const clusterApi = kubeClusterApi(client);
  const memory = createAgentMemory();
  const progress = observe.progress(`agent ${opts.cluster}: applied`, 'objects');
  const passOptions: AgentPassOptions = {
    repo,
    fleetRepo: () => remote.fleetRepo(),
    client: clusterApi,
    cluster: opts.cluster,
    ...(opts.fleet !== undefined ? { fleet: opts.fleet } : {}),
    branchPrefix: opts.branchPrefix,
    memory,
    clock,
    identity: { name: `gitfleet agent ${opts.cluster}`, email: `agent-${opts.cluster}@gitfleet.invalid` },
    guard: { ...defaultDeletionGuard },
    allowDeletions: opts.allowDeletions,
    // A loop's start may follow a crash the hub saw: its first pass returns (return-handshake.ts).
    returnOnStart: !opts.once,
    ...(opts.returnPruneTimeoutMs !== undefined ? { returnPruneTimeoutMs: opts.returnPruneTimeoutMs } : {}),
    leaseDurationMs: (opts.heartbeat ?? defaultHeartbeatSettings).leaseDurationMs,
    concurrency: defaultApplyConcurrency,
    crdTimeoutMs: 60_000,
    factsMaxAgeMs: opts.once ? 0 : (opts.statusUpdateFrequencyMs ?? defaultStatusUpdateFrequencyMs),
    warn: (m) => log.warn(m),
    info: (m) => log.info(m),
    statusRepos: agentStatusRepos({
      ...opts,
      signal: stopping.signal,
      onWarning: (m) => log.warn(m),
      onExchange: (e) => observe.metrics.gitExchange(e),
      rateLimits,
    }),
    ...(progress ? { progress } : {}),
    ...(await agentKeysOf(opts, log)),
    ...(await agentSecretsFor(opts, clusterApi, log)),
  };
  try {
    if (opts.once) {
      const result = await runAgentPass(passOptions);
      print(result, opts.output, io);
      return exitCode(result);
    }
    return await loop(opts, io, {
      passOptions,
      waiting,
      client: clusterApi,
      clock,
      stopping,
      observe,
      leadership: agentLeadership(opts, client, clock, observe.log),
    });
  } finally {
    client.close();
  }
}

async function loop(
  opts: AgentOptions,
  io: Io,
  deps: {
    passOptions: AgentPassOptions;
    waiting: AgentWaiting;
    client: ClusterApi;
    clock: ReturnType<typeof systemClock>;
    stopping: AbortController;
    leadership: Leadership;
    observe: Observability;
  },
): Promise<number> {
  const log = deps.observe.log;
  const ref = clusterBranchRef(opts.branchPrefix, opts.cluster);
  // The loop's timers do not hold the process; this does, until it is stopped.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const { observe } = deps;
  const reporter: AgentReporter = {
    output: opts.output,
    io,
    jsonLogs: observe.json,
    log,
    report: observe.report,
  };
  const interrupted = io.untilInterrupted().then(() => deps.stopping.abort());
  const { leadership } = deps;
  const pacer = agentPushPacer(opts, deps.waiting, deps.clock);
  try {
    await deps.observe.serve();
    log.info(`following ${ref} in ${opts.repo}; press Ctrl-C to stop`);
    const { readiness } = deps.observe;
    const leading = { leadership, log, stop: interrupted, signal: deps.stopping.signal, readiness };
    await whileLeading(leading, (stop, lost) => {
      // Each term starts afresh: what this agent remembered settling may have been changed by
      // the agent that held the Lease meanwhile. A pass in hand when the Lease is lost stops at
      // its next request (`signal`), with no status written.
      const passOptions = {
        ...deps.passOptions,
        memory: createAgentMemory(),
        signal: lost,
        ...(pacer ? { pacer } : {}),
      };
      const maintained = agentPassWithMaintenance({ passOptions, clock: deps.clock, log });
      return runAgentLoop({
        pass: async () => {
          assertLeading(leadership, `agent ${opts.cluster}`, 'this pass applied nothing');
          return maintained();
        },
        client: deps.client,
        cluster: opts.cluster,
        memory: passOptions.memory,
        triggers: [
          watchLocalRefs({ gitdir: passOptions.repo.gitdir, sourceRef: ref }),
          periodicTrigger({ clock: deps.clock, intervalMs: opts.intervalMs }),
          ...deps.waiting.triggers(),
        ],
        clock: deps.clock,
        random: Math.random,
        log,
        ...(opts.exportCoalesceMs === undefined ? {} : { exportCoalesceMs: opts.exportCoalesceMs }),
        heartbeat: {
          intervalMs: renewIntervalMs(opts.heartbeat ?? defaultHeartbeatSettings),
          stretchedMs: deps.waiting.stretchedMs,
          // Not leading: the beat is skipped; the check in write() stays for a loss in between.
          leading: () => leadership.isLeading(),
          write: () => {
            assertLeading(leadership, `agent ${opts.cluster}`, 'no heartbeat written');
            return writeHeartbeat({
              // Where this term's passes write status: a status repository, or the agent's own.
              repo: heartbeatRepo(passOptions.memory, passOptions.fleetRepo?.() ?? passOptions.repo),
              ref: heartbeatRef(opts.branchPrefix, opts.cluster),
              cluster: opts.cluster,
              author: {
                ...passOptions.identity,
                time: Math.floor(deps.clock.now() / 1000),
                tzOffsetMinutes: 0,
              },
              warn: (m) => log.warn(m),
              ...(passOptions.signer ? { signer: passOptions.signer } : {}),
            });
          },
        },
        ...(pacer ? { pacer } : {}),
        metrics: deps.observe.metrics,
        readiness,
        stop,
        report: (result) => {
          deps.waiting.passed(result);
          reportLoopPass(result, reporter);
        },
      });
    });
  } finally {
    clearInterval(keepAlive);
    await deps.observe.close();
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
