// The processes a user starts for a fleet: `gitfleet hub` on the repository and one
// `gitfleet agent` per cluster, long-running, their output kept to print when a test failed.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

const cli = join(new URL('.', import.meta.url).pathname, '../../../bin/gitfleet.js');

/** A hub and its agents running; `stop` ends them and prints their output if the run failed. */
export interface RunningFleet {
  /** Sends every process SIGTERM and resolves once all have exited (callers that remove the repository must wait). */
  stop(): Promise<void>;
  /** Stops one cluster's agent (SIGTERM) and resolves once it has exited. */
  stopAgent(cluster: string): Promise<void>;
  /** Starts that cluster's agent again with the same arguments. */
  startAgent(cluster: string): void;
  /** Everything the hub and agents printed so far, by name (`hub`, then the clusters). */
  output(): string;
  /** What the named process (`hub`, a cluster's agent) printed so far. */
  outputOf(name: string): string;
  /** Whether the named process (`hub`, a cluster's agent) is still running. */
  running(name: string): boolean;
  /** Throws, with what it printed, when the named process has exited. */
  assertRunning(name: string): void;
  /**
   * Sends the named process a signal; for SIGKILL and SIGTERM resolves once it has exited (an
   * exit asked for, not counted by `unexpectedExits`), for others (SIGSTOP, SIGCONT) at once.
   */
  signal(name: string, signal: NodeJS.Signals): Promise<void>;
  /** The processes that exited without being told to (stop, stopAgent, signal), with their last output. */
  unexpectedExits(): { name: string; code: number | null; signal: string | null; output: string }[];
}

/** Extra arguments for the hub and for every agent (failover settings, heartbeat intervals). */
export interface FleetArgs {
  hub?: readonly string[];
  agent?: readonly string[];
  /** Arguments for one cluster's agent only (its own key files), after `agent`. */
  agentOf?: (cluster: string) => readonly string[];
  /** Run the agents with their Lease (the clusters need the lease namespace); default --no-lease. */
  agentLease?: boolean;
}

/** Starts the hub (resync 1s) and an agent per cluster (context of the same name, resync 1s). */
export function startFleet(
  repo: string,
  clusters: readonly string[],
  kubeconfig: string,
  extra: FleetArgs = {},
): RunningFleet {
  const children = new Map<string, ChildProcess>();
  const logs = new Map<string, string[]>();
  const asked = new WeakSet<ChildProcess>();
  const unexpected: { name: string; code: number | null; signal: string | null; output: string }[] = [];
  const start = (name: string, args: readonly string[]) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = logs.get(name) ?? [];
    logs.set(name, lines);
    child.stdout!.on('data', (d: Buffer) => lines.push(d.toString()));
    child.stderr!.on('data', (d: Buffer) => lines.push(d.toString()));
    child.on('exit', (code, signal) => {
      if (!asked.has(child)) unexpected.push({ name, code, signal, output: lines.join('').slice(-4000) });
    });
    children.set(name, child);
  };
  const kill = (child: ChildProcess, signal: NodeJS.Signals) => {
    if (signal === 'SIGKILL' || signal === 'SIGTERM') asked.add(child);
    child.kill(signal);
  };
  const agentArgs = (cluster: string) => [
    ...['agent', '--repo', repo, '--cluster', cluster, '--kubeconfig', kubeconfig],
    // One agent per cluster by construction: no Lease (the clusters have no gitfleet-system).
    ...['--context', cluster, '--interval', '1s', ...(extra.agentLease ? [] : ['--no-lease'])],
    ...(extra.agent ?? []),
    ...(extra.agentOf?.(cluster) ?? []),
  ];
  start('hub', ['hub', '--repo', repo, '--interval', '1s', ...(extra.hub ?? [])]);
  for (const cluster of clusters) start(cluster, agentArgs(cluster));
  const output = () => [...logs].map(([name, lines]) => `--- ${name}\n${lines.join('')}`).join('\n');
  return {
    async stop() {
      const running = [...children].filter(([, c]) => c.exitCode === null && c.signalCode === null);
      for (const [, child] of running) kill(child, 'SIGTERM');
      const failed = process.exitCode !== undefined && process.exitCode !== 0;
      if (failed) console.log(output());
      const stuck = (
        await Promise.all(running.map(([name, child]) => exitsWithin(child, stopWaitMs, name)))
      ).filter((name): name is string => name !== undefined);
      if (stuck.length > 0) {
        throw new Error(
          `${stuck.join(', ')} did not exit within ${stopWaitMs / 1000} s of SIGTERM (killed); what they printed:\n${output()}`,
        );
      }
    },
    async stopAgent(cluster) {
      const child = children.get(cluster);
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      kill(child, 'SIGTERM');
      const stuck = await exitsWithin(child, stopWaitMs, cluster);
      if (stuck)
        throw new Error(`agent ${cluster} did not exit within ${stopWaitMs / 1000} s of SIGTERM (killed)`);
    },
    startAgent(cluster) {
      logs.get(cluster)?.push(`--- ${cluster} started again\n`);
      start(cluster, agentArgs(cluster));
    },
    async signal(name, signal) {
      const child = children.get(name);
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      kill(child, signal);
      if (signal !== 'SIGKILL' && signal !== 'SIGTERM') return;
      const stuck = await exitsWithin(child, stopWaitMs, name);
      if (stuck) throw new Error(`${name} did not exit within ${stopWaitMs / 1000} s of ${signal} (killed)`);
    },
    unexpectedExits: () => [...unexpected],
    output,
    outputOf: (name) => (logs.get(name) ?? []).join(''),
    running(name) {
      const child = children.get(name);
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    assertRunning(name) {
      const child = children.get(name);
      if (child && (child.exitCode !== null || child.signalCode !== null))
        throw new Error(
          `${name} exited (${child.exitCode ?? child.signalCode}): ${(logs.get(name) ?? []).join('').slice(-2000)}`,
        );
    },
  };
}

/** How long a stopped hub or agent may take to exit: the pass in hand, then the watches closed. */
const stopWaitMs = 30_000;

/**
 * Resolves once the child has exited; when it has not after `ms`, kills it (SIGKILL) and
 * resolves with its name, so a process that ignores SIGTERM fails the test instead of hanging it.
 */
function exitsWithin(child: ChildProcess, ms: number, name: string): Promise<string | undefined> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(name);
    }, ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
}

/**
 * Returns a runner of a test's steps as subtests: each first checks the hub still runs, and a
 * failed step prints what the hub and agents said (the last `tail` lines of each).
 */
export function fleetSteps(
  t: TestContext,
  fleet: RunningFleet,
  tail = 200,
): (name: string, fn: () => Promise<void>) => Promise<void> {
  return (name, fn) =>
    t.test(name, async () => {
      try {
        fleet.assertRunning('hub');
        await fn();
      } catch (err) {
        console.log(
          fleet
            .output()
            .split(/\n(?=--- )/)
            .map((part) => part.split('\n').slice(-tail).join('\n'))
            .join('\n'),
        );
        throw err;
      }
    });
}
