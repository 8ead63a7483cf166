// Where the machine's CPU went during a stretch of the budget scenario (bench/budget.ts): the
// forge emulator's `git http-backend` processes (the bench process's ended children: every
// request to the forge is one, with its upload-pack or receive-pack and pack-objects), the
// bench's own Node process (the forge's HTTP side), the hub and the agents' processes, and how
// busy the machine was. On GitHub the forge's share is GitHub's; here it shares 2 cores with
// the fleet, which is why push → applied measured here is no floor of the design.
import { machineCpu, processCpu, type ProcessCpu } from './cpu-split.js';

/** The counters at one moment. */
export interface CpuSample {
  at: number;
  bench: ProcessCpu;
  hub: number;
  agents: number;
  machine: { busy: number; total: number };
}

/** One stretch's CPU, in seconds, and the machine's busy share (0–1). */
export interface CpuShare {
  name: string;
  seconds: number;
  machineBusy: number;
  cores: number;
  forgeGitCpuSeconds: number;
  benchNodeCpuSeconds: number;
  hubCpuSeconds: number;
  agentsCpuSeconds: number;
}

const ownOf = (pid: number): number => {
  try {
    return processCpu(pid).own;
  } catch {
    return 0; // ended: its time is its parent's now
  }
};

/** Returns a sampler of the bench, the hub and the agents' processes (their pids asked at each sample). */
export function cpuSampler(pids: () => { hub: number; agents: readonly number[] }): () => CpuSample {
  return () => {
    const { hub, agents } = pids();
    return {
      at: Date.now(),
      bench: processCpu(process.pid),
      hub: ownOf(hub),
      agents: agents.reduce((sum, pid) => sum + ownOf(pid), 0),
      machine: machineCpu(),
    };
  };
}

/** Returns the CPU spent between two samples. */
export function cpuShare(name: string, a: CpuSample, b: CpuSample): CpuShare {
  const round = (x: number) => Math.round(x * 10) / 10;
  const total = b.machine.total - a.machine.total;
  const seconds = (b.at - a.at) / 1000;
  return {
    name,
    seconds: round(seconds),
    machineBusy: total > 0 ? Math.round(((b.machine.busy - a.machine.busy) / total) * 100) / 100 : 0,
    cores: seconds > 0 ? round(total / seconds) : 0,
    forgeGitCpuSeconds: round(b.bench.children - a.bench.children),
    benchNodeCpuSeconds: round(b.bench.own - a.bench.own),
    hubCpuSeconds: round(b.hub - a.hub),
    agentsCpuSeconds: round(b.agents - a.agents),
  };
}

/** One line of the report: the machine's busy share and who spent it. */
export function describeCpu(share: CpuShare): string {
  return (
    `${share.name} (${share.seconds} s): the machine ${Math.round(share.machineBusy * 100)} % busy ` +
    `(${share.cores} cores); CPU s: the forge's git ${share.forgeGitCpuSeconds}, the forge's ` +
    `HTTP (bench) ${share.benchNodeCpuSeconds}, the hub ${share.hubCpuSeconds}, the agents ${share.agentsCpuSeconds}`
  );
}
