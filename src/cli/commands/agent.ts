// `gitfleet agent`: keep one member cluster equal to its cluster branch and report back to Git.
//
//   gitfleet agent --repo <path> --cluster NAME [--kubeconfig FILE] [--context C] [--once]
//                  [--interval 30s] [--branch-prefix gitfleet/] [--allow-deletions] [--output text|json]
//                  [--token-file F] [--cache-dir D]
//
// Exit codes of --once: 0 the branch's head is fully applied (every object applied, nothing
// left to prune) and its status written; 1 something failed (an object, a deletion, a refused
// mass deletion, Git or the cluster unreachable); 2 usage; 3 nothing to apply (the branch does
// not exist yet, or is tombstoned). Without --once the agent runs until SIGINT or SIGTERM (exit 0).
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { defaultDeletionGuard } from '../../core/model/mass-deletion-guard.js';
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../adapters/kube/kube-client.js';
import { createAgentMemory } from '../../loops/agent/agent-memory.js';
import { runAgentLoop } from '../../loops/agent/agent-loop.js';
import type { ClusterApi } from '../../loops/agent/cluster-api.js';
import { kubeClusterApi } from '../../loops/agent/kube-cluster-api.js';
import { clusterBranchRef, localAgentRepo } from '../../loops/agent/agent-repo.js';
import { remoteAgentRepo } from './agent-remote-repo.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import {
  runAgentPass,
  type AgentPassOptions,
  type AgentPassResult,
} from '../../loops/agent/run-agent-pass.js';
import { watchLocalRefs } from '../../loops/hub/watch-local-refs.js';
import { systemClock } from '../../loops/runtime/clock.js';
import type { Logger } from '../../loops/runtime/logger.js';
import { periodicTrigger } from '../../loops/runtime/trigger.js';
import type { Io } from '../io.js';
import { runSubcommand } from '../run-subcommand.js';
import { parseInterval } from '../parse-interval.js';

export const agentUsage = [
  'gitfleet agent --repo PATH|URL --cluster NAME [--kubeconfig FILE] [--context C] [--once] [--interval 30s]',
  `${' '.repeat(16)}[--branch-prefix gitfleet/] [--allow-deletions] [--token-file F] [--cache-dir D] [--output text|json]`,
  `${' '.repeat(70)}apply the cluster's branch to it and report to gitfleet/status/NAME`,
].join('\n  ');

export interface AgentOptions {
  repo: string;
  cluster: string;
  kubeconfig?: string;
  context?: string;
  once: boolean;
  intervalMs: number;
  branchPrefix: string;
  allowDeletions: boolean;
  output: 'text' | 'json';
  /** For URLs: a file holding the token (else $GITFLEET_GIT_TOKEN). */
  tokenFile?: string;
  /** For URLs: where the mirror lives (default ~/.cache/gitfleet/mirrors, as the hub's). */
  cacheDir?: string;
}

/** Parses `agent` arguments and runs it; returns the exit code (2 on a usage error). */
export function runAgentCommand(args: string[], io: Io): Promise<number> {
  return runSubcommand({ name: 'agent', usage: agentUsage, args, io, parse: parseAgentArgs, run: runAgent });
}

function parseAgentArgs(args: string[]): AgentOptions {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      repo: { type: 'string' },
      cluster: { type: 'string' },
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      once: { type: 'boolean' },
      interval: { type: 'string' },
      'branch-prefix': { type: 'string' },
      'allow-deletions': { type: 'boolean' },
      'token-file': { type: 'string' },
      'cache-dir': { type: 'string' },
      output: { type: 'string' },
    },
  });
  if (positionals.length > 0) throw new Error(`unexpected argument '${positionals[0]}'`);
  if (!values.repo) throw new Error('--repo PATH is required');
  if (!values.cluster || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(values.cluster)) {
    throw new Error('--cluster NAME is required (a DNS label, as cluster names are)');
  }
  const intervalMs = parseInterval(values.interval ?? '30s');
  if (intervalMs === undefined)
    throw new Error(`--interval must be like 30s, 5m or 500ms, not '${values.interval}'`);
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json')
    throw new Error(`--output must be text or json, not '${output}'`);
  return {
    repo: values.repo,
    cluster: values.cluster,
    ...(values.kubeconfig ? { kubeconfig: values.kubeconfig } : {}),
    ...(values.context ? { context: values.context } : {}),
    once: values.once === true,
    intervalMs,
    branchPrefix: values['branch-prefix'] ?? defaultBranchPrefix,
    allowDeletions: values['allow-deletions'] === true,
    ...(values['token-file'] ? { tokenFile: values['token-file'] } : {}),
    ...(values['cache-dir'] ? { cacheDir: values['cache-dir'] } : {}),
    output,
  };
}

/** Runs one pass (--once) or the agent loop; returns the exit code. */
export async function runAgent(opts: AgentOptions, io: Io): Promise<number> {
  // Stopping aborts the requests to Git in flight, so a remote that hangs cannot hold the agent.
  const stopping = new AbortController();
  const repo = isRepoUrl(opts.repo)
    ? await remoteAgentRepo({
        url: opts.repo,
        cluster: opts.cluster,
        branchPrefix: opts.branchPrefix,
        ...(opts.tokenFile ? { tokenFile: opts.tokenFile } : {}),
        ...(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}),
        signal: stopping.signal,
        onWarning: (m) => io.err(`agent ${opts.cluster}: warning: ${m}`),
      })
    : localAgentRepo(opts.repo);
  const client = KubeClient.fromKubeConfig(loadKubeConfig(opts));
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
    factsMaxAgeMs: opts.once ? 0 : 30_000,
    warn: (m) => io.err(`agent ${opts.cluster}: warning: ${m}`),
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
  const log = ioLogger(io, opts.cluster);
  const ref = clusterBranchRef(opts.branchPrefix, opts.cluster);
  // The loop's timers do not hold the process; this does, until it is stopped.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  io.err(`agent ${opts.cluster}: following ${ref} in ${opts.repo}; press Ctrl-C to stop`);
  let last = '';
  try {
    await runAgentLoop({
      pass: () => runAgentPass(deps.passOptions),
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
  return 0;
}

/** Returns whether a pass found everything in place and did nothing. */
function isQuiet(result: AgentPassResult): boolean {
  const pruned = (result.prune?.deleted.length ?? 0) + (result.prune?.orphaned.length ?? 0);
  return result.fullyApplied && pruned === 0 && result.objects.every((o) => o.action === 'unchanged');
}

function loadKubeConfig(opts: AgentOptions): KubeConfig {
  const kc = new KubeConfig();
  if (opts.kubeconfig) kc.loadFromFile(opts.kubeconfig);
  else kc.loadFromDefault();
  if (opts.context) {
    if (!kc.getContextObject(opts.context)) throw new Error(`kubeconfig: no context '${opts.context}'`);
    kc.setCurrentContext(opts.context);
  }
  return kc;
}

/** Returns the exit code of a --once pass (see the header). */
export function exitCode(result: AgentPassResult): number {
  if (result.type === 'tombstoned' || result.type === 'noBranch') return 3;
  return result.fullyApplied && result.gitReachable ? 0 : 1;
}

function ioLogger(io: Io, cluster: string): Logger {
  return {
    info: (m) => io.err(`agent ${cluster}: ${m}`),
    warn: (m) => io.err(`agent ${cluster}: warning: ${m}`),
    error: (m) => io.err(`agent ${cluster}: error: ${m}`),
  };
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
