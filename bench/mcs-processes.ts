// The hub and the agents of the multi-cluster services benchmarks, as the processes users start
// (`node bin/gitfleet.js hub …`, `… agent …`), their output kept in files under the scratch
// directory, and their CPU time read from /proc as the kernel counts it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpu } from './lib/cpu-split.js';

const cli = fileURLToPath(new URL('../../bin/gitfleet.js', import.meta.url));

/** A running gitfleet process. */
export interface GitfleetProcess {
  name: string;
  pid: number;
  logFile: string;
  /** CPU seconds (user + system, its waited-for children included) used so far. */
  cpuSeconds(): number;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 15 s). */
  stop(): Promise<void>;
  /** The last lines of its output. */
  tail(lines?: number): string;
  /** The bytes of output so far: a mark for `outputSince`. */
  outputLength(): number;
  /** Its output after the mark. */
  outputSince(mark: number): string;
}

/** Starts `gitfleet <args>`; its stdout and stderr go to `<logDir>/<name>.log`. */
export function startGitfleet(opts: {
  name: string;
  args: readonly string[];
  logDir: string;
  /** Node's own flags before the script (e.g. --cpu-prof). */
  nodeArgs?: readonly string[];
}): GitfleetProcess {
  const logFile = join(opts.logDir, `${opts.name}.log`);
  const out = createWriteStream(logFile, { flags: 'a' });
  const child: ChildProcess = spawn(process.execPath, [...(opts.nodeArgs ?? []), cli, ...opts.args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const pid = child.pid!;
  return {
    name: opts.name,
    pid,
    logFile,
    cpuSeconds: () => cpuSecondsOf(pid),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
    tail: (lines = 30) => readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n'),
    outputLength: () => readFileSync(logFile).length,
    outputSince: (mark) => readFileSync(logFile).subarray(mark).toString('utf8'),
  };
}

/** Returns utime + stime + cutime + cstime of the process, in seconds (fields 14–17 of /proc/<pid>/stat). */
export function cpuSecondsOf(pid: number): number {
  const { own, children } = processCpu(pid);
  return own + children;
}

/**
 * Returns the durations (ms) of the passes in a hub's or agent's text output: the hub prints
 * `hub: rendered … in N ms` for each pass that wrote, the agent `agent <c>: … in N ms; …` for
 * each pass that applied or wrote status (quiet passes print nothing).
 */
export function passDurations(output: string): number[] {
  return [...output.matchAll(/^(?:hub: rendered|agent [^:]+:) .* in (\d+) ms/gm)].map((m) => Number(m[1]));
}

/** The hub's command line: a local repository, the given resync period. */
export function hubArgs(repo: string, interval: string): string[] {
  return ['hub', '--repo', repo, '--interval', interval];
}

/** An agent's command line for the cluster of the kubeconfig context of the same name. */
export function agentArgs(opts: {
  repo: string;
  cluster: string;
  kubeconfig: string;
  interval: string;
  exportCoalesce: string;
}): string[] {
  return [
    'agent',
    '--repo',
    opts.repo,
    '--cluster',
    opts.cluster,
    '--kubeconfig',
    opts.kubeconfig,
    '--context',
    opts.cluster,
    '--interval',
    opts.interval,
    '--export-coalesce',
    opts.exportCoalesce,
    '--no-lease',
  ];
}
