// Whether a recorded process still runs, judged from /proc: the pid must exist and still run the
// recorded binary. A zombie (exited, not yet reaped) has an empty command line, so it counts as
// gone, and a pid reused by an unrelated program is not mistaken for ours.
import { readFileSync } from 'node:fs';
import type { ComponentProcess } from './cluster-state.js';

/** Returns true while `proc` runs its recorded binary. */
export function isRunning(proc: Pick<ComponentProcess, 'pid' | 'binary'>): boolean {
  try {
    const argv0 = readFileSync(`/proc/${proc.pid}/cmdline`, 'utf8').split('\0')[0];
    return argv0 === proc.binary;
  } catch {
    return false;
  }
}

/** Sends `signal` to the process group of `proc` (or the process alone); returns false if gone. */
export function signalProcess(proc: ComponentProcess, signal: NodeJS.Signals): boolean {
  if (!isRunning(proc)) return false;
  for (const target of [-proc.pid, proc.pid]) {
    try {
      process.kill(target, signal);
      return true;
    } catch {
      // No such group (not a group leader): try the pid itself.
    }
  }
  return false;
}
