// The processes a user starts for a fleet: `gitfleet hub` on the repository and one
// `gitfleet agent` per cluster, long-running, their output kept to print when a test failed.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const cli = join(new URL('.', import.meta.url).pathname, '../../../bin/gitfleet.js');

/** A hub and its agents running; `stop` ends them and prints their output if the run failed. */
export interface RunningFleet {
  stop(): void;
}

/** Starts the hub (resync 1s) and an agent per cluster (context of the same name, resync 1s). */
export function startFleet(repo: string, clusters: readonly string[], kubeconfig: string): RunningFleet {
  const children: ChildProcess[] = [];
  const logs = new Map<string, string[]>();
  const start = (name: string, args: readonly string[]) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    logs.set(name, lines);
    child.stdout!.on('data', (d: Buffer) => lines.push(d.toString()));
    child.stderr!.on('data', (d: Buffer) => lines.push(d.toString()));
    children.push(child);
  };
  start('hub', ['hub', '--repo', repo, '--interval', '1s']);
  for (const cluster of clusters) {
    const agent = ['agent', '--repo', repo, '--cluster', cluster, '--kubeconfig', kubeconfig];
    start(cluster, [...agent, '--context', cluster, '--interval', '1s']);
  }
  return {
    stop() {
      for (const child of children) child.kill('SIGTERM');
      const failed = process.exitCode !== undefined && process.exitCode !== 0;
      if (failed) for (const [name, lines] of logs) console.log(`--- ${name}\n${lines.join('')}`);
    },
  };
}
