// Where a bench's CPU went, from /proc (Linux): a process's own time and its waited-for
// children's (a forge that spawns `git http-backend` per request sees their CPU there once each
// request ends), and the machine's busy share. Seconds, at USER_HZ ticks.
import { readFileSync } from 'node:fs';

const clockTicks = 100; // USER_HZ: `getconf CLK_TCK` is 100 on Linux

/** A process's CPU: its own (utime + stime) and its ended children's (cutime + cstime), in seconds. */
export interface ProcessCpu {
  own: number;
  children: number;
}

/** Returns the CPU seconds of a process and of its children that ended (fields 14–17 of /proc/<pid>/stat). */
export function processCpu(pid: number): ProcessCpu {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return {
    own: ((fields[11] ?? 0) + (fields[12] ?? 0)) / clockTicks,
    children: ((fields[13] ?? 0) + (fields[14] ?? 0)) / clockTicks,
  };
}

/** The machine's CPU seconds since boot, busy and in all (every core; /proc/stat's first line). */
export function machineCpu(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  // cpu  user nice system idle iowait irq softirq steal …: idle and iowait are not busy.
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: (total - idle) / clockTicks, total: total / clockTicks };
}
