// One contender run in a fresh child process: wall time measured here, peak RSS by GNU time
// (its wait4 rusage covers the child's own children too), so each contender's memory is its own.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A command to run and where its output goes. */
export interface TimedCommand {
  command: string;
  args: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Write stdout to this file instead of collecting it. */
  stdoutFile?: string;
  /** Bytes fed to stdin. */
  input?: Buffer | string;
  /** The exit codes of a finished run (default 0 alone). */
  ok?: readonly number[];
}

/** What one timed run took. */
export interface TimedRun {
  ms: number;
  /** Peak RSS of the process (and its largest child) in MiB; null without /usr/bin/time. */
  peakRssMiB: number | null;
  stdout: string;
  stderr: string;
}

const gnuTime = '/usr/bin/time';

/** Runs the command to completion; returns its wall time and peak RSS, or throws when it fails. */
export async function runTimed(cmd: TimedCommand): Promise<TimedRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'gitfleet-bench-time-'));
  const rssFile = join(scratch, 'rss');
  const timed = existsSync(gnuTime);
  const [command, args] = timed
    ? [gnuTime, ['-f', '%M', '-o', rssFile, cmd.command, ...cmd.args]]
    : [cmd.command, [...cmd.args]];
  const out = cmd.stdoutFile === undefined ? 'pipe' : openSync(cmd.stdoutFile, 'w');
  try {
    const start = performance.now();
    const result = await spawnAndWait({ command, args, cmd, out });
    const ms = performance.now() - start;
    if (!(cmd.ok ?? [0]).includes(result.code ?? -1)) {
      throw new Error(
        `${cmd.command} ${cmd.args.join(' ')} exited ${result.code}: ${result.stderr.slice(-2000)}`,
      );
    }
    const kib = timed ? Number(/(\d+)\s*$/.exec(readFileSync(rssFile, 'utf8'))?.[1]) : Number.NaN;
    return { ms, peakRssMiB: Number.isFinite(kib) ? Math.round(kib / 1024) : null, ...result };
  } finally {
    if (typeof out === 'number') closeSync(out);
    rmSync(scratch, { recursive: true, force: true });
  }
}

function spawnAndWait(opts: {
  command: string;
  args: string[];
  cmd: TimedCommand;
  out: 'pipe' | number;
}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(opts.command, opts.args, {
      cwd: opts.cmd.cwd,
      env: opts.cmd.env ?? process.env,
      stdio: ['pipe', opts.out, 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin?.end(opts.cmd.input);
  });
}
