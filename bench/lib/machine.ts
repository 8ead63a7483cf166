// What the numbers were measured on: they mean little without it.
import { cpus, freemem, loadavg, release, totalmem, type } from 'node:os';
import { roundTo } from './stats.js';

/** The machine a benchmark ran on. */
export interface Machine {
  cpuModel: string;
  cpus: number;
  memoryGiB: number;
  freeMemoryGiB: number;
  node: string;
  os: string;
  /** 1, 5 and 15 minute load averages when the run started: above the CPU count, others were busy. */
  loadAverage: number[];
}

/** Returns the CPU model and count, memory, Node version, OS and current load of this machine. */
export function machineInfo(): Machine {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cpus: list.length,
    memoryGiB: roundTo(totalmem() / 2 ** 30, 1),
    freeMemoryGiB: roundTo(freemem() / 2 ** 30, 1),
    node: process.version,
    os: `${type()} ${release()}`,
    loadAverage: loadavg().map((x) => roundTo(x, 2)),
  };
}
