// `gitfleet agent`: keep one member cluster equal to its cluster branch and report back to Git.
//
//   gitfleet agent --repo <path> --cluster NAME [--kubeconfig FILE] [--context C] [--once]
//                  [--interval 30s] [--branch-prefix gitfleet/] [--allow-deletions] [--output text|json]
//                  [--token-file F] [--cache-dir D] [--export-coalesce 1s]
//                  [--cluster-status-update-frequency 10s] [--cluster-lease-duration 40s]
//                  [--cluster-lease-renew-interval-fraction 0.25]
//
// Exit codes of --once: 0 the branch's head is fully applied (every object applied, nothing
// left to prune) and its status written; 1 something failed (an object, a deletion, a refused
// mass deletion, Git or the cluster unreachable); 2 usage; 3 the branch does not exist yet;
// 4 the branch is tombstoned (exit-codes.ts). Without --once the agent runs until SIGINT or
// SIGTERM (exit 0), and renews its heartbeat ref every lease duration × renew fraction
// (loops/agent/heartbeat.ts); --once writes no heartbeat.
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { ioLogger } from '../io-logger.js';
import { UsageError } from '../usage-error.js';
import { ConfigError } from '../../core/model/config-error.js';
import { defaultDeletionGuard } from '../../core/model/mass-deletion-guard.js';
import type { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../adapters/kube/kube-client.js';
import { createAgentMemory } from '../../loops/agent/agent-memory.js';
import { runAgentLoop } from '../../loops/agent/agent-loop.js';
import type { ClusterApi } from '../../loops/agent/cluster-api.js';
import { kubeClusterApi } from '../../loops/agent/kube-cluster-api.js';
import { clusterBranchRef, localAgentRepo } from '../../loops/agent/agent-repo.js';
import { heartbeatRef } from '../../core/publish/hub-refs.js';
import {
  defaultHeartbeatSettings,
  renewIntervalMs,
  writeHeartbeat,
  type HeartbeatSettings,
} from '../../loops/agent/heartbeat.js';
import { remoteAgentRepo } from './agent-remote-repo.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import {
  runAgentPass,
  type AgentPassOptions,
  type AgentPassResult,
} from '../../loops/agent/run-agent-pass.js';
import { watchLocalRefs } from '../../loops/hub/watch-local-refs.js';
import { systemClock } from '../../loops/runtime/clock.js';
import { repoMaintenance, withRepoMaintenance } from '../../loops/shared/repo-maintenance.js';
import type { Logger } from '../../loops/runtime/logger.js';
import { periodicTrigger } from '../../loops/runtime/trigger.js';
import type { Io } from '../io.js';
import { repoFlag, tokenFileFlag, cacheDirFlag } from '../shared-flags.js';
import type { CommandSpec } from '../command-line.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { escapeText } from '../../core/model/quote-text.js';

/** `gitfleet agent`: its command line. */
export const agentSpec = {
  name: 'agent',
  summary:
    "apply the cluster's branch to the cluster and report to the status branch, once or on every change",
  positionals: [],
  flags: {
    repo: repoFlag,
    cluster: {
      type: 'string',
      value: 'NAME',
      required: true,
      help: 'the member cluster this agent applies (a DNS label)',
    },
    kubeconfig: {
      type: 'string',
      value: 'FILE',
      help: 'the kubeconfig to use (default: $KUBECONFIG, ~/.kube/config or in-cluster)',
    },
    context: {
      type: 'string',
      value: 'C',
      help: 'the kubeconfig context to use (default: its current context)',
    },
    once: { type: 'boolean', help: 'run one pass and exit with its outcome' },
    interval: { type: 'duration', value: 'DURATION', default: '30s', help: 'resync period of the loop' },
    'export-coalesce': {
      type: 'duration',
      value: 'DURATION',
      default: '1s',
      help: 'window over which changes of exported EndpointSlices are coalesced into one status commit',
    },
    'branch-prefix': {
      type: 'string',
      value: 'PREFIX',
      default: defaultBranchPrefix,
      help: "the prefix of the hub's branches",
    },
    'allow-deletions': { type: 'boolean', help: 'prune past the mass-deletion guard in this run' },
    'cluster-status-update-frequency': {
      type: 'duration',
      value: 'DURATION',
      default: '10s',
      help: "how old the cluster's facts (API enablements, nodes, capacity) may be before a pass reads them again",
    },
    'cluster-lease-duration': {
      type: 'duration',
      value: 'DURATION',
      default: '40s',
      help: 'the heartbeat lease: the heartbeat ref is renewed every duration × renew fraction',
    },
    'cluster-lease-renew-interval-fraction': {
      type: 'fraction',
      value: 'FRACTION',
      default: '0.25',
      help: 'the fraction of the lease duration between two heartbeats',
    },
    'token-file': tokenFileFlag,
    'cache-dir': cacheDirFlag,
    output: {
      type: 'string',
      choices: ['text', 'json'],
      default: 'text',
      help: 'print pass results as text or JSON',
    },
  },
} as const satisfies CommandSpec;

/** `gitfleet agent`: parses its command line and runs the agent. */
export const agentCommand = defineCommand({
  spec: agentSpec,
  run: ({ values }, io) => {
    if (!isClusterName(values.cluster)) {
      throw new UsageError(
        `--cluster NAME must be a DNS label, as cluster names are, not '${escapeText(values.cluster)}'`,
      );
    }
    return runAgent(
      {
        repo: values.repo,
        cluster: values.cluster,
        ...(values.kubeconfig ? { kubeconfig: values.kubeconfig } : {}),
        ...(values.context ? { context: values.context } : {}),
        once: values.once,
        intervalMs: values.interval,
        exportCoalesceMs: values['export-coalesce'],
        branchPrefix: values['branch-prefix'],
        allowDeletions: values['allow-deletions'],
        statusUpdateFrequencyMs: values['cluster-status-update-frequency'],
        heartbeat: {
          leaseDurationMs: values['cluster-lease-duration'],
          renewIntervalFraction: values['cluster-lease-renew-interval-fraction'],
        },
        ...(values['token-file'] ? { tokenFile: values['token-file'] } : {}),
        ...(values['cache-dir'] ? { cacheDir: values['cache-dir'] } : {}),
        output: values.output,
      },
      io,
    );
  },
});

/** Karmada's `--cluster-status-update-frequency` default. */
const defaultStatusUpdateFrequencyMs = 10_000;

function isClusterName(name: string): boolean {
  return /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name);
}

export interface AgentOptions {
  repo: string;
  cluster: string;
  kubeconfig?: string;
  context?: string;
  once: boolean;
  intervalMs: number;
  /** The coalescing window of exported EndpointSlice changes (multi-cluster services). */
  exportCoalesceMs?: number;
  branchPrefix: string;
  allowDeletions: boolean;
  output: 'text' | 'json';
  /** For URLs: a file holding the token (else $GITFLEET_GIT_TOKEN). */
  tokenFile?: string;
  /** For URLs: where the mirror lives (default: mirror-cache-dir.ts, as the hub's). */
  cacheDir?: string;
  /** How old the cluster's facts may be before a pass reads them again (default 10 s). */
  statusUpdateFrequencyMs?: number;
  /** The heartbeat's lease (default: Karmada's, renewed every 10 s). */
  heartbeat?: HeartbeatSettings;
}

/** Runs one pass (--once) or the agent loop; returns the exit code. */
export async function runAgent(opts: AgentOptions, io: Io): Promise<number> {
  // Stopping aborts the requests to Git in flight, so a remote that hangs cannot hold the agent.
  const stopping = new AbortController();
  const log = agentLogger(io, opts.cluster);
  const repo = isRepoUrl(opts.repo)
    ? await remoteAgentRepo({
        url: opts.repo,
        cluster: opts.cluster,
        branchPrefix: opts.branchPrefix,
        ...(opts.tokenFile ? { tokenFile: opts.tokenFile } : {}),
        ...(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}),
        signal: stopping.signal,
        onWarning: (m) => log.warn(m),
      })
    : localAgentRepo(opts.repo);
  const client = KubeClient.fromKubeConfig(await loadKubeConfig(opts));
  const clusterApi = kubeClusterApi(client);
  const clock = systemClock();
  const memory = createAgentMemory();
  const passOptions: AgentPassOptions = {
    repo,
    client: clusterApi,
    cluster: opts.cluster,
    branchPrefix: opts.branchPrefix,
    memory,
    clock,
    identity: { name: `gitfleet agent ${opts.cluster}`, email: `agent-${opts.cluster}@gitfleet.invalid` },
    guard: { ...defaultDeletionGuard },
    allowDeletions: opts.allowDeletions,
    concurrency: 16,
    crdTimeoutMs: 60_000,
    factsMaxAgeMs: opts.once ? 0 : (opts.statusUpdateFrequencyMs ?? defaultStatusUpdateFrequencyMs),
    warn: (m) => log.warn(m),
  };
  try {
    if (opts.once) {
      const result = await runAgentPass(passOptions);
      print(result, opts.output, io);
      return exitCode(result);
    }
    return await loop(opts, io, { passOptions, client: clusterApi, clock, stopping });
  } finally {
    client.close();
  }
}

/**
 * The agent's pass; with a remote repository, followed by the maintenance of the mirror it owns
 * (loops/shared/repo-maintenance.ts). A local repository is the hub's, which maintains it.
 */
function agentPassWithMaintenance(
  opts: AgentOptions,
  deps: { passOptions: AgentPassOptions; clock: ReturnType<typeof systemClock>; log: Logger },
): () => ReturnType<typeof runAgentPass> {
  const pass = () => runAgentPass(deps.passOptions);
  if (!isRepoUrl(opts.repo)) return pass;
  const { clock, log } = deps;
  return withRepoMaintenance(
    pass,
    repoMaintenance({ gitdir: deps.passOptions.repo.gitdir, packCache: {}, clock, log }),
  );
}

async function loop(
  opts: AgentOptions,
  io: Io,
  deps: {
    passOptions: AgentPassOptions;
    client: ClusterApi;
    clock: ReturnType<typeof systemClock>;
    stopping: AbortController;
  },
): Promise<number> {
  const log = agentLogger(io, opts.cluster);
  const ref = clusterBranchRef(opts.branchPrefix, opts.cluster);
  // The loop's timers do not hold the process; this does, until it is stopped.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  io.err(`agent ${opts.cluster}: following ${ref} in ${opts.repo}; press Ctrl-C to stop`);
  let last = '';
  try {
    await runAgentLoop({
      pass: agentPassWithMaintenance(opts, { ...deps, log }),
      client: deps.client,
      cluster: opts.cluster,
      memory: deps.passOptions.memory,
      triggers: [
        watchLocalRefs({ gitdir: deps.passOptions.repo.gitdir, sourceRef: ref }),
        periodicTrigger({ clock: deps.clock, intervalMs: opts.intervalMs }),
      ],
      clock: deps.clock,
      random: Math.random,
      log,
      ...(opts.exportCoalesceMs === undefined ? {} : { exportCoalesceMs: opts.exportCoalesceMs }),
      heartbeat: {
        intervalMs: renewIntervalMs(opts.heartbeat ?? defaultHeartbeatSettings),
        write: () =>
          writeHeartbeat({
            repo: deps.passOptions.repo,
            ref: heartbeatRef(opts.branchPrefix, opts.cluster),
            cluster: opts.cluster,
            author: {
              ...deps.passOptions.identity,
              time: Math.floor(deps.clock.now() / 1000),
              tzOffsetMinutes: 0,
            },
            warn: (m) => log.warn(m),
          }),
      },
      stop: io.untilInterrupted().then(() => deps.stopping.abort()),
      report: (result) => {
        // A pass that changed nothing, or failed as the one before did, is not worth a line.
        const summary = summarize(result);
        if ((isQuiet(result) || summary === last) && result.status.type !== 'written') return;
        last = summary;
        print(result, opts.output, io);
      },
    });
  } finally {
    clearInterval(keepAlive);
  }
  io.err(`agent ${opts.cluster}: stopped`);
  return exitCodes.ok;
}

/** Returns the agent's logger: its lines start with `agent <cluster>:`. */
function agentLogger(io: Io, cluster: string): Logger {
  return ioLogger(io, `agent ${cluster}`);
}

/** Returns whether a pass found everything in place and did nothing. */
function isQuiet(result: AgentPassResult): boolean {
  const pruned = (result.prune?.deleted.length ?? 0) + (result.prune?.orphaned.length ?? 0);
  return result.fullyApplied && pruned === 0 && result.objects.every((o) => o.action === 'unchanged');
}

// @kubernetes/client-node takes a second to load: only the agent pays for it.
async function loadKubeConfig(opts: AgentOptions): Promise<KubeConfig> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  if (opts.kubeconfig) kc.loadFromFile(opts.kubeconfig);
  else kc.loadFromDefault();
  if (opts.context) {
    if (!kc.getContextObject(opts.context))
      throw new ConfigError('InvalidKubeconfig', `kubeconfig: no context '${opts.context}'`);
    kc.setCurrentContext(opts.context);
  }
  return kc;
}

/** Returns the exit code of a --once pass (see the header). */
export function exitCode(result: AgentPassResult): number {
  if (result.type === 'noBranch') return exitCodes.noClusterBranch;
  if (result.type === 'tombstoned') return exitCodes.tombstoned;
  return result.fullyApplied && result.gitReachable ? exitCodes.ok : exitCodes.failed;
}

function summarize(result: AgentPassResult): string {
  const short = result.commit?.slice(0, 7) ?? 'none';
  if (result.type === 'noBranch') return `agent ${result.cluster}: no cluster branch yet; nothing applied`;
  if (result.type === 'tombstoned')
    return `agent ${result.cluster}: branch tombstoned at ${short}; stopped applying, deleted nothing`;
  if (result.type === 'clusterUnreachable') {
    return `agent ${result.cluster}: the cluster does not answer; reported NotReady, applied and deleted nothing`;
  }
  const counts = new Map<string, number>();
  for (const o of result.objects) counts.set(o.action, (counts.get(o.action) ?? 0) + 1);
  const parts = [...counts].map(([action, n]) => `${n} ${action}`);
  const pruned = result.prune ? result.prune.deleted.length + result.prune.orphaned.length : 0;
  const state = result.fullyApplied
    ? 'applied'
    : result.gitReachable
      ? 'partly applied'
      : 'Git unreachable; kept';
  return `agent ${result.cluster}: ${state} ${short}: ${result.objects.length} objects (${parts.join(', ') || 'none'}), pruned ${pruned}`;
}

function print(result: AgentPassResult, output: 'text' | 'json', io: Io): void {
  if (output === 'json') {
    const { objects, ...rest } = result;
    io.out(JSON.stringify({ ...rest, objects: objects.map(({ live: _live, ...o }) => o) }, null, 2));
    return;
  }
  const lines = [
    `${summarize(result)} in ${result.totalMs} ms; ${result.requests.mutating} writes; status ${result.status.type}`,
  ];
  for (const o of result.objects) if (!o.applied) lines.push(`  ${o.path}: ${o.message ?? o.action}`);
  for (const u of result.unparsed) lines.push(`  ${u.path}: ${u.message}`);
  for (const f of result.prune?.failed ?? []) lines.push(`  ${f.message}`);
  if (result.prune?.plan.guardRefusal) lines.push(`  ${result.prune.plan.guardRefusal}`);
  // What prune is waiting on or could not list (the guard's refusal is printed once above;
  // `terminating` holds both the objects found terminating and those the pass's DELETE left so).
  for (const h of result.prune?.plan.held ?? [])
    if (h.reason === 'NotListed' || h.reason === 'NamespaceNotEmpty') lines.push(`  ${h.message}`);
  for (const t of result.prune?.terminating ?? []) lines.push(`  ${t.message}`);
  if (result.inventoryProblem) lines.push(`  ${result.inventoryProblem}`);
  (result.fullyApplied ? io.out : io.err)(lines.join('\n'));
}
