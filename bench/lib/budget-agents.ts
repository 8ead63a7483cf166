// Many agents in one process, for the budget scenario (bench/budget.ts): each runs the agent's
// own loop as `gitfleet agent` wires it (cli/commands/agent.ts: openAgentRepo's mirrors, its
// branch read from the render repository the bindings branch names, the fleet repository's
// bindings branch beside it, the status repositories over HTTP, the doorbell, the push pacer,
// the heartbeat, the status pass, the pass's mirror maintenance, the local-refs watch) with its
// own rate-limit gates, as a process of its own would have; only the member cluster is the
// in-memory one behind the agent's interface (test/loops/agent/fake-cluster.ts). Left out: the
// Lease in the cluster (one agent each here), metrics and the per-pass log lines.
//
//   node build/bench/lib/budget-agents.js '<json settings>'
//
// It prints one JSON line per event on stdout: {"type":"applied","cluster","value","at"} when a
// pass's server-side apply put a new value of the watched ConfigMap into the cluster (the moment
// the apply answered, not the end of the pass: the status that follows is push → reported), {"type":"status","cluster","value","at"}
// when its status reached the Git host, {"type":"ready"} once every loop started. SIGTERM stops
// every loop (the pass in hand finishes).
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeFileSync, mkdirSync } from 'node:fs';
import { agentWaiting, type AgentDoorbellOptions } from '../../src/cli/commands/agent-doorbell.js';
import { agentPushPacer } from '../../src/cli/commands/agent-pacing.js';
import { openAgentRepo } from '../../src/cli/commands/agent-render-repo.js';
import { agentPassWithMaintenance } from '../../src/loops/agent/agent-pass-maintenance.js';
import { agentStatusRepos } from '../../src/cli/commands/agent-status-repos.js';
import { rateLimitGatesFor } from '../../src/cli/commands/rate-limit-gates-for.js';
import { heartbeatRef } from '../../src/core/publish/hub-refs.js';
import { createAgentMemory } from '../../src/loops/agent/agent-memory.js';
import { runAgentLoop } from '../../src/loops/agent/agent-loop.js';
import { writeHeartbeat } from '../../src/loops/agent/heartbeat.js';
import type { AgentPassOptions } from '../../src/loops/agent/run-agent-pass.js';
import { heartbeatRepo } from '../../src/loops/agent/status-target.js';
import { systemClock } from '../../src/loops/runtime/clock.js';
import type { Logger } from '../../src/loops/runtime/logger.js';
import { periodicTrigger, type Trigger } from '../../src/loops/runtime/trigger.js';
import { watchLocalRefs } from '../../src/loops/runtime/watch-local-refs.js';
import { clusterBranchRef } from '../../src/loops/agent/agent-repo.js';
import { FakeCluster } from '../../test/loops/agent/fake-cluster.js';

/** What the scenario hands the process. */
export interface BudgetAgentsSettings {
  /** The fleet repository's URL (the cluster branches). */
  url: string;
  notifyUrl: string;
  clusters: string[];
  /** Cluster → its doorbell token. */
  tokens: Record<string, string>;
  workDir: string;
  branchPrefix: string;
  /** The agents' timing, as the github profile with the doorbell sets it (forge-profile.ts). */
  intervalMs: number;
  branchPollMs: number;
  safetyPollMs: number;
  doorbellHeartbeatMs: number;
  pushSpreadMs: number;
  leaseDurationMs: number;
  renewFraction: number;
  statusUpdateFrequencyMs: number;
  /** The ConfigMap whose `data.value` says which source push a cluster applied. */
  watched: { namespace: string; name: string };
  /** A token every Git request presents (the forge serves the background agents' with it: start-forge.ts `background`). */
  gitToken?: string;
}

const emit = (event: Record<string, unknown>): void =>
  void process.stdout.write(`${JSON.stringify(event)}\n`);

/** A logger that keeps warnings and errors (they go to stderr, one line each) and drops the rest. */
function agentLog(cluster: string): Logger {
  return {
    info: () => undefined,
    warn: (m) => process.stderr.write(`agent ${cluster}: ${m}\n`),
    error: (m) => process.stderr.write(`agent ${cluster}: error: ${m}\n`),
  };
}

/** Starts one agent's loop; returns how to stop it. */
async function startAgent(
  s: BudgetAgentsSettings,
  cluster: string,
  stop: Promise<void>,
): Promise<{ loop: Promise<void> }> {
  const clock = systemClock();
  const log = agentLog(cluster);
  const stopping = new AbortController();
  void stop.then(() => stopping.abort());
  const cacheDir = join(s.workDir, 'cache');
  const rateLimits = rateLimitGatesFor({ clock, log });
  const remoteOptions = {
    cacheDir,
    signal: stopping.signal,
    onWarning: (m: string) => log.warn(m),
    rateLimits,
    ...(s.gitToken !== undefined ? { tokenFile: join(s.workDir, 'git-token') } : {}),
  };
  // As `gitfleet agent --repo <url>` opens it: the branch where the bindings branch says it lives.
  const repo = await openAgentRepo({
    ...remoteOptions,
    repo: s.url,
    cluster,
    branchPrefix: s.branchPrefix,
    log,
  });
  const tokenFile = join(s.workDir, 'tokens', cluster);
  writeFileSync(tokenFile, `${s.tokens[cluster]}\n`, { mode: 0o600 });
  const doorbell: AgentDoorbellOptions = {
    url: s.notifyUrl,
    tokenFile,
    safetyPollMs: s.safetyPollMs,
    heartbeatMs: s.doorbellHeartbeatMs,
  };
  const renewMs = Math.round(s.leaseDurationMs * s.renewFraction);
  const waiting = await agentWaiting(
    repo,
    {
      cluster,
      branchPrefix: s.branchPrefix,
      branchPollMs: s.branchPollMs,
      beaconIntervalMs: renewMs,
      doorbell,
    },
    { clock, log, random: Math.random },
  );
  const pacer = agentPushPacer({ once: false, pushSpreadMs: s.pushSpreadMs, doorbell }, waiting, clock);
  const fake = new FakeCluster();
  const memory = createAgentMemory();
  const identity = { name: `gitfleet agent ${cluster}`, email: `agent-${cluster}@gitfleet.invalid` };
  const passOptions: AgentPassOptions = {
    repo: tracedRefresh(waiting.repo, cluster),
    fleetRepo: () => repo.fleetRepo(),
    client: fake,
    cluster,
    branchPrefix: s.branchPrefix,
    memory,
    clock,
    identity,
    guard: { maxDeleteFraction: 0.5, minObjects: 10 },
    allowDeletions: false,
    returnOnStart: true,
    leaseDurationMs: s.leaseDurationMs,
    concurrency: 4,
    crdTimeoutMs: 60_000,
    factsMaxAgeMs: s.statusUpdateFrequencyMs,
    warn: (m) => log.warn(m),
    statusRepos: agentStatusRepos({ ...remoteOptions, cluster, branchPrefix: s.branchPrefix }),
    ...(pacer ? { pacer } : {}),
  };
  const watched = { apiVersion: 'v1', kind: 'ConfigMap', ...s.watched };
  const valueNow = (): string | undefined =>
    (fake.peek(watched)?.['data'] as Record<string, string> | undefined)?.['value'];
  let applied: string | undefined;
  // The moment the watched object's new value is in the cluster: when the apply that wrote it answered.
  const apply = fake.apply.bind(fake);
  fake.apply = async (manifest, options) => {
    const result = await apply(manifest, options);
    const value = valueNow();
    if (options.dryRun !== true && value !== undefined && value !== applied) {
      applied = value;
      emit({ type: 'applied', cluster, value, at: Date.now() });
    }
    return result;
  };
  const loop = runAgentLoop({
    pass: tracedPass(agentPassWithMaintenance({ passOptions, clock, log }), cluster),
    client: fake,
    cluster,
    memory,
    triggers: [
      watchLocalRefs({
        gitdir: passOptions.repo.gitdir,
        sourceRef: clusterBranchRef(s.branchPrefix, cluster),
      }),
      periodicTrigger({ clock, intervalMs: s.intervalMs }),
      ...waiting.triggers(),
    ].map((t) => traced(t, cluster)),
    clock,
    random: Math.random,
    log,
    stop,
    ...(pacer ? { pacer } : {}),
    heartbeat: {
      intervalMs: renewMs,
      stretchedMs: waiting.stretchedMs,
      write: () =>
        writeHeartbeat({
          repo: heartbeatRepo(memory, passOptions.fleetRepo?.() ?? passOptions.repo),
          ref: heartbeatRef(s.branchPrefix, cluster),
          cluster,
          author: { ...identity, time: Math.floor(clock.now() / 1000), tzOffsetMinutes: 0 },
        }),
    },
    report: (result) => {
      waiting.passed(result);
      if (result.status.type === 'written')
        emit({ type: 'status', cluster, value: valueNow(), at: Date.now() });
    },
  });
  return { loop };
}

// GITFLEET_BENCH_TRACE=1: what woke each agent and when its passes ran, as events on stdout.
const tracing = process.env['GITFLEET_BENCH_TRACE'] !== undefined;

function traced(trigger: Trigger, cluster: string): Trigger {
  if (!tracing) return trigger;
  return {
    name: trigger.name,
    start: (notify) =>
      trigger.start((reason) => {
        emit({ type: 'trigger', cluster, reason, at: Date.now() });
        notify(reason);
      }),
    stop: () => trigger.stop(),
  };
}

/** The repository whose refresh (the Git part of a pass) is traced as `refresh` and `refreshed`. */
function tracedRefresh<T extends { refresh: () => Promise<void> }>(repo: T, cluster: string): T {
  if (!tracing) return repo;
  // Its other members read through (a spread would drop the getters: refresh-gate.ts does the same).
  return Object.assign(Object.create(repo) as T, {
    refresh: async () => {
      emit({ type: 'refresh', cluster, at: Date.now() });
      try {
        await repo.refresh();
      } finally {
        emit({ type: 'refreshed', cluster, at: Date.now() });
      }
    },
  });
}

function tracedPass<R>(pass: () => Promise<R>, cluster: string): () => Promise<R> {
  if (!tracing) return pass;
  return async () => {
    emit({ type: 'pass', cluster, at: Date.now() });
    try {
      return await pass();
    } finally {
      emit({ type: 'passed', cluster, at: Date.now() });
    }
  };
}

/**
 * GITFLEET_BENCH_TRACE=1: every 2 s, the process's CPU time in that stretch and its event loop's
 * delay (P99, most), as `load` events: whether the agents wait on the forge or on their one core.
 */
function traceLoad(): () => void {
  if (!tracing) return () => undefined;
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  let cpu = process.cpuUsage();
  const timer = setInterval(() => {
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const ms = (ns: number) => Math.round(ns / 1e6);
    emit({
      type: 'load',
      at: Date.now(),
      cpuMs: Math.round((used.user + used.system) / 1000),
      loopDelayP99Ms: ms(delay.percentile(99)),
      loopDelayMaxMs: ms(delay.max),
    });
    delay.reset();
  }, 2000);
  return () => {
    clearInterval(timer);
    delay.disable();
  };
}

/** Runs every agent of the settings until SIGTERM. */
async function main(): Promise<void> {
  const settings = JSON.parse(process.argv[2] ?? '{}') as BudgetAgentsSettings;
  mkdirSync(join(settings.workDir, 'tokens'), { recursive: true });
  if (settings.gitToken !== undefined)
    writeFileSync(join(settings.workDir, 'git-token'), `${settings.gitToken}\n`, { mode: 0o600 });
  let stopAll!: () => void;
  const stop = new Promise<void>((resolve) => (stopAll = resolve));
  process.on('SIGTERM', () => stopAll());
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const stopTracing = traceLoad();
  const loops: Promise<void>[] = [];
  for (const cluster of settings.clusters) loops.push((await startAgent(settings, cluster, stop)).loop);
  emit({ type: 'ready' });
  await Promise.all(loops);
  stopTracing();
  clearInterval(keepAlive);
}

await main();
