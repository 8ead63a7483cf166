// The dashboard's read after one status branch moved (part of the status scenario): the
// server's reading (readFleetStatus of every record, then the rows and the matrix, as
// DashboardService does) is done once, then member1's agent reports one object changed (one
// blob of 2,000 on one branch of 50), and the read is timed again:
//
//   memo   the read keeps what the first one read, by object id (fleet-status-memo.ts), as the
//          dashboard does now
//   cold   the read starts from nothing, as every read of the dashboard did before
//
// Each run is a fresh process (this file run as a script); it puts member1's status branch back
// where it was before it exits, so the other contenders read the fleet as it was built.
//
//   node build/bench/status-reread.js <gitdir> memo|cold      prints {ms, cpuMs, rssMiB}
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createFleetStatusMemo } from '../src/loops/views/fleet-status-memo.js';
import { readFleetStatus } from '../src/loops/views/read-fleet-status.js';
import { matrixOf, statusRowsOf } from '../src/loops/ui/dashboard-view.js';
import type { Contender } from './lib/alternate.js';
import { runTimed } from './lib/run-timed.js';
import { fastImport, gitIn } from './status-fleet.js';

const script = fileURLToPath(import.meta.url);
const branch = 'refs/heads/gitfleet/status/member1';

/** What one child run measured: the second read's wall and CPU time, and the process's RSS after it. */
export interface RereadSample {
  ms: number;
  cpuMs: number;
  rssMiB: number;
}

/** Returns the two contenders (memo, cold); each run's CPU time is added to `cpu` by name. */
export function rereadContenders(gitdir: string, cpu: Map<string, number[]>): Contender[] {
  const modes = [
    ['dashboard read after one status branch moved (memo)', 'memo'],
    ['dashboard read after one status branch moved (cold: every read before)', 'cold'],
  ] as const;
  return modes.map(([name, mode]) => ({
    name,
    side: mode === 'memo' ? 'gitfleet' : 'alternative',
    run: async () => {
      const run = await runTimed({ command: process.execPath, args: [script, gitdir, mode] });
      const sample = JSON.parse(run.stdout) as RereadSample;
      cpu.set(name, [...(cpu.get(name) ?? []), sample.cpuMs]);
      return { ms: sample.ms, peakRssMiB: run.peakRssMiB };
    },
  }));
}

async function serverRead(gitdir: string, memo?: ReturnType<typeof createFleetStatusMemo>) {
  const data = await readFleetStatus({ dir: gitdir, objects: 'always', ...(memo ? { memo } : {}) });
  return matrixOf(data, statusRowsOf(data));
}

async function child(gitdir: string, mode: string): Promise<void> {
  const git = gitIn(gitdir);
  const memo = createFleetStatusMemo();
  await serverRead(gitdir, memo);
  const before = git(['rev-parse', branch]).trim();
  const path = git(['ls-tree', '-r', '--name-only', before])
    .split('\n')
    .find((p) => p.startsWith('objects/app0/Deployment.apps/'))!;
  const text = git(['show', `${before}:${path}`]).replace(/health: \w+/, 'health: Degraded');
  fastImport(git, branch, [{ path, content: text }], 'status member1: one object Degraded', true);
  try {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await serverRead(gitdir, mode === 'memo' ? memo : undefined);
    const cpu = process.cpuUsage(c0);
    const sample: RereadSample = {
      ms: performance.now() - t0,
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
    };
    process.stdout.write(JSON.stringify(sample));
  } finally {
    execFileSync('git', ['--git-dir', gitdir, 'update-ref', branch, before]);
  }
}

if (process.argv[1] === script) await child(process.argv[2]!, process.argv[3]!);
