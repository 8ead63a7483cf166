// A contender timed twice over: its wall time and peak RSS (runTimed, the table), then once more
// under GNU time for its CPU time (user + system), which the load of a shared machine disturbs
// less than the wall time (a scenario's details.cpuMs).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Contender } from './alternate.js';
import { runTimed } from './run-timed.js';

/** Returns a contender running `command args`, its CPU milliseconds added to `cpuMs` under its name. */
export function cpuTimed(opts: {
  name: string;
  side: Contender['side'];
  command: string;
  args: readonly string[];
  /** Scratch directory (GNU time's output). */
  dir: string;
  cpuMs: Map<string, number[]>;
  stdoutFile?: string;
  /** The exit codes of a finished run (default 0 alone). */
  ok?: readonly number[];
}): Contender {
  const { name, command, args, ok = [0] } = opts;
  return {
    name,
    side: opts.side,
    run: async () => {
      const run = await runTimed({
        command,
        args,
        ok,
        ...(opts.stdoutFile ? { stdoutFile: opts.stdoutFile } : {}),
      });
      const cpu = cpuOf(command, args, opts.dir, ok);
      if (cpu !== undefined) opts.cpuMs.set(name, [...(opts.cpuMs.get(name) ?? []), cpu]);
      return { ms: run.ms, peakRssMiB: run.peakRssMiB };
    },
  };
}

/** Returns the user + system CPU milliseconds of one run, or undefined without GNU time or on another exit code. */
function cpuOf(
  command: string,
  args: readonly string[],
  dir: string,
  ok: readonly number[],
): number | undefined {
  const file = join(dir, 'cpu.txt');
  const run = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', file, command, ...args], { stdio: 'ignore' });
  if (!ok.includes(run.status ?? -1)) return undefined;
  const [user, system] = readFileSync(file, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return Math.round(((user ?? 0) + (system ?? 0)) * 1000);
}
