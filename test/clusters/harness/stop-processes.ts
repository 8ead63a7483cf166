// Stops recorded processes: SIGTERM, a grace period, then SIGKILL for whatever still runs.
import type { ComponentProcess } from './cluster-state.js';
import { isRunning, signalProcess } from './process-liveness.js';

/** What stopping left behind: processes that did not exit even after SIGKILL (should be none). */
export interface StopReport {
  stopped: number;
  killed: ComponentProcess[];
  survivors: ComponentProcess[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitGone(procs: ComponentProcess[], ms: number): Promise<ComponentProcess[]> {
  const deadline = Date.now() + ms;
  let left = procs.filter(isRunning);
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(100);
    left = left.filter(isRunning);
  }
  return left;
}

/**
 * Stops `procs` in two waves, the API servers' clients first and etcd last, so nothing logs a
 * storm of connection errors on the way down; returns what had to be killed and what survived.
 */
export async function stopProcesses(
  procs: ComponentProcess[],
  opts: { graceMs: number },
): Promise<StopReport> {
  const running = procs.filter(isRunning);
  const waves = [
    running.filter((p) => p.component !== 'etcd'),
    running.filter((p) => p.component === 'etcd'),
  ];
  const killed: ComponentProcess[] = [];
  for (const wave of waves) {
    wave.forEach((p) => signalProcess(p, 'SIGTERM'));
    const stubborn = await waitGone(wave, opts.graceMs);
    stubborn.forEach((p) => signalProcess(p, 'SIGKILL'));
    killed.push(...stubborn);
  }
  const survivors = await waitGone(running, 5000);
  return { stopped: running.length, killed, survivors };
}

/** Sends SIGKILL to every process still running, synchronously (for a process 'exit' hook). */
export function killProcessesNow(procs: ComponentProcess[]): void {
  procs.forEach((p) => signalProcess(p, 'SIGKILL'));
}
