// The agent as a process (docs/architecture.md#the-agent-loop): what `gitfleet agent` wires
// around the pass once it has built its adapters. The options of its passes (the process's
// settings: deletion guard, concurrency, how old the cluster's facts may get, the return on
// start), and the loop run each time the agent holds its cluster's Lease: a fresh memory per term,
// the pass with the maintenance of its mirrors, the triggers, and the heartbeat written only while
// leading. The command parses its flags, builds the repositories, the cluster client, the
// doorbell and the Lease, and prints; this is the rest.
import { defaultDeletionGuard } from '../../core/model/mass-deletion-guard.js';
import { heartbeatRef } from '../../core/publish/hub-refs.js';
import type { Clock } from '../runtime/clock.js';
import type { Leadership } from '../runtime/leadership.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import type { Readiness } from '../runtime/readiness.js';
import type { Trigger } from '../runtime/trigger.js';
import { assertLeading, whileLeading } from '../runtime/while-leading.js';
import { createAgentMemory } from './agent-memory.js';
import { runAgentLoop } from './agent-loop.js';
import { agentPassWithMaintenance } from './agent-pass-maintenance.js';
import type { AgentPassOptions } from './agent-pass-options.js';
import { defaultApplyConcurrency } from './apply-staged.js';
import {
  defaultHeartbeatSettings,
  renewIntervalMs,
  writeHeartbeat,
  type HeartbeatSettings,
} from './heartbeat.js';
import type { PushPacer } from './push-pacer.js';
import type { AgentPassResult } from './run-agent-pass.js';
import { heartbeatRepo } from './status-target.js';

/** The agent's settings from its flags. */
export interface AgentProcessSettings {
  cluster: string;
  /** The fleet's identity (default: the root commit of the cluster branch). */
  fleet?: string;
  branchPrefix: string;
  once: boolean;
  allowDeletions: boolean;
  /** How long deletions wait for the hub after a return (default 5 min). */
  returnPruneTimeoutMs?: number;
  /** How old the cluster's facts may be before a pass reads them again. */
  statusUpdateFrequencyMs: number;
  /** The coalescing window of exported EndpointSlice changes. */
  exportCoalesceMs?: number;
  /** The heartbeat's lease (default: Karmada's, renewed every 10 s). */
  heartbeat?: HeartbeatSettings;
}

/** What the command built for the passes: repositories, the cluster, keys and secrets. */
export type AgentPassAdapters = Pick<AgentPassOptions, 'repo' | 'fleetRepo' | 'client'> &
  Partial<Pick<AgentPassOptions, 'statusRepos' | 'progress' | 'verifier' | 'signer' | 'secrets'>>;

/** Returns the options of the agent's passes: the settings of the process over the command's adapters. */
export function agentPassOptionsOf(
  settings: AgentProcessSettings,
  adapters: AgentPassAdapters,
  deps: { clock: Clock; log: Logger },
): AgentPassOptions {
  const { cluster, once } = settings;
  return {
    ...adapters,
    cluster,
    ...(settings.fleet !== undefined ? { fleet: settings.fleet } : {}),
    branchPrefix: settings.branchPrefix,
    memory: createAgentMemory(),
    clock: deps.clock,
    identity: { name: `gitfleet agent ${cluster}`, email: `agent-${cluster}@gitfleet.invalid` },
    guard: { ...defaultDeletionGuard },
    allowDeletions: settings.allowDeletions,
    // A loop's start may follow a crash the hub saw: its first pass returns (return-handshake.ts).
    returnOnStart: !once,
    ...(settings.returnPruneTimeoutMs !== undefined
      ? { returnPruneTimeoutMs: settings.returnPruneTimeoutMs }
      : {}),
    leaseDurationMs: (settings.heartbeat ?? defaultHeartbeatSettings).leaseDurationMs,
    concurrency: defaultApplyConcurrency,
    crdTimeoutMs: 60_000,
    factsMaxAgeMs: once ? 0 : settings.statusUpdateFrequencyMs,
    warn: (m) => deps.log.warn(m),
    info: (m) => deps.log.info(m),
  };
}

/** The adapters and the process's parts the loop runs on. */
export interface AgentProcessParts {
  passOptions: AgentPassOptions;
  /** The triggers of a term (the branch's ref watcher, the resync, a remote's poll and doorbell). */
  triggers: (passOptions: AgentPassOptions) => Trigger[];
  /** While the doorbell's beacons are accepted: the heartbeat's stretched period. */
  stretchedMs: () => number | undefined;
  leadership: Leadership;
  /** Paces status and heartbeat pushes together; absent: they push at once. */
  pacer?: PushPacer;
  clock: Clock;
  log: Logger;
}

/** How the loop is stopped, counted and told about, and what hears of its passes. */
export interface AgentLoopRun {
  /** Resolves when the process must stop (SIGINT, SIGTERM). */
  stop: Promise<void>;
  /** Aborted when the process must stop (ends a wait for the Lease). */
  signal: AbortSignal;
  readiness: Readiness;
  metrics: Metrics;
  /** Told of every pass's result. */
  report: (result: AgentPassResult) => void;
}

/** Runs the agent loop each time the agent holds its cluster's Lease, until `stop`. */
export async function runAgentProcess(
  settings: AgentProcessSettings,
  parts: AgentProcessParts,
  run: AgentLoopRun,
): Promise<void> {
  const { leadership, log, clock, pacer } = parts;
  const { cluster } = settings;
  const leading = { leadership, log, stop: run.stop, signal: run.signal, readiness: run.readiness };
  await whileLeading(leading, (stop, lost) => {
    // Each term starts afresh: what this agent remembered settling may have been changed by
    // the agent that held the Lease meanwhile. A pass in hand when the Lease is lost stops at
    // its next request (`signal`), with no status written.
    const passOptions = {
      ...parts.passOptions,
      memory: createAgentMemory(),
      signal: lost,
      ...(pacer ? { pacer } : {}),
    };
    const maintained = agentPassWithMaintenance({ passOptions, clock, log });
    return runAgentLoop({
      pass: async () => {
        assertLeading(leadership, `agent ${cluster}`, 'this pass applied nothing');
        return maintained();
      },
      client: passOptions.client,
      cluster,
      memory: passOptions.memory,
      triggers: parts.triggers(passOptions),
      clock,
      random: Math.random,
      log,
      ...(settings.exportCoalesceMs === undefined ? {} : { exportCoalesceMs: settings.exportCoalesceMs }),
      heartbeat: termHeartbeat(settings, parts, passOptions),
      ...(pacer ? { pacer } : {}),
      metrics: run.metrics,
      readiness: run.readiness,
      stop,
      report: run.report,
    });
  });
}

// The heartbeat of one term: skipped while not leading, written where its passes write status.
function termHeartbeat(
  settings: AgentProcessSettings,
  parts: AgentProcessParts,
  passOptions: AgentPassOptions,
): NonNullable<Parameters<typeof runAgentLoop>[0]['heartbeat']> {
  const { leadership, log, clock } = parts;
  const { cluster, branchPrefix } = settings;
  return {
    intervalMs: renewIntervalMs(settings.heartbeat ?? defaultHeartbeatSettings),
    stretchedMs: parts.stretchedMs,
    // Not leading: the beat is skipped; the check in write() stays for a loss in between.
    leading: () => leadership.isLeading(),
    write: () => {
      assertLeading(leadership, `agent ${cluster}`, 'no heartbeat written');
      return writeHeartbeat({
        // Where this term's passes write status: a status repository, or the agent's own.
        repo: heartbeatRepo(passOptions.memory, passOptions.fleetRepo?.() ?? passOptions.repo),
        ref: heartbeatRef(branchPrefix, cluster),
        cluster,
        author: { ...passOptions.identity, time: Math.floor(clock.now() / 1000), tzOffsetMinutes: 0 },
        warn: (m) => log.warn(m),
        ...(passOptions.signer ? { signer: passOptions.signer } : {}),
      });
    },
  };
}
