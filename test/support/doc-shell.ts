// A reader's terminals for a walkthrough (doc-steps.ts): each block runs in bash as the reader
// would paste it, the exports and the working directory carried from one block to the next as
// an open terminal keeps them; a background block is a process of its own, stopped with Ctrl-C
// (SIGINT to its process group, as a terminal sends it).
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a block printed (stdout and stderr as one stream, as a terminal shows them) and its exit code. */
export interface BlockRun {
  code: number | null;
  output: string;
}

/** A long-running block: its output so far, and how to stop it. */
export interface BackgroundBlock {
  output(): string;
  running(): boolean;
  /** Ctrl-C: SIGINT to the process group; resolves once bash has exited (SIGKILL after `waitMs`, reported). */
  stop(waitMs: number): Promise<{ killed: boolean }>;
}

/** The terminal state a walkthrough runs in: an environment and two files carrying exports and cwd. */
export interface DocShell {
  run(code: string, timeoutMs: number): Promise<BlockRun>;
  background(code: string): BackgroundBlock;
}

/** Returns a shell whose blocks start in `cwd` with `env`, keeping their state under `stateDir`. */
export function docShell(opts: { cwd: string; env: NodeJS.ProcessEnv; stateDir: string }): DocShell {
  const exports = join(opts.stateDir, 'exports.sh');
  const cwdFile = join(opts.stateDir, 'cwd');
  writeFileSync(exports, '');
  writeFileSync(cwdFile, opts.cwd);
  // stderr joins stdout; the previous block's exports and directory are restored first.
  const preamble = `exec 2>&1\nset -o pipefail\n. '${exports}'\ncd "$(cat '${cwdFile}')"\n`;
  const save = `\n__status=$?\nexport -p > '${exports}'\npwd > '${cwdFile}'\nexit $__status\n`;
  const start = (script: string): ChildProcess =>
    spawn('bash', ['-c', script], {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  return {
    run(code, timeoutMs) {
      // set -e as a careful reader stops at the first failing command; the state is saved only
      // when the block got through.
      const child = start(`${preamble}set -e\n${code}${save}`);
      return collect(child, timeoutMs);
    },
    background(code) {
      const child = start(`${preamble}${code}\n`);
      const chunks: string[] = [];
      child.stdout!.on('data', (d: Buffer) => chunks.push(d.toString()));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      return {
        output: () => chunks.join(''),
        running: () => child.exitCode === null && child.signalCode === null,
        async stop(waitMs) {
          if (child.exitCode !== null || child.signalCode !== null) return { killed: false };
          signalGroup(child, 'SIGINT');
          const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), waitMs).unref());
          if ((await Promise.race([exited, timer])) !== 'late') return { killed: false };
          signalGroup(child, 'SIGKILL');
          await exited;
          return { killed: true };
        },
      };
    },
  };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // the group is gone already
  }
}

/** Resolves with the block's output and exit code; kills its group when it outlasts `timeoutMs`. */
function collect(child: ChildProcess, timeoutMs: number): Promise<BlockRun> {
  const chunks: string[] = [];
  child.stdout!.on('data', (d: Buffer) => chunks.push(d.toString()));
  const timer = setTimeout(() => {
    chunks.push(`\n[killed after ${timeoutMs / 1000} s]\n`);
    signalGroup(child, 'SIGKILL');
  }, timeoutMs);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: chunks.join('') });
    });
  });
}
