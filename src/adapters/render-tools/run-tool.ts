// Runs a render tool (helm, kustomize) as a child process with a deadline, a hermetic
// environment and bounded output: the tool is killed (its whole process group) when it runs past
// the deadline or writes more than the limit, and the outcome says which.
import { spawn } from 'node:child_process';

/** How a tool run ended. */
export type ToolOutcome =
  | { type: 'ok'; stdout: string; stderr: string }
  | { type: 'failed'; exitCode: number | null; stderr: string }
  | { type: 'timeout'; stderr: string }
  | { type: 'tooLarge'; stderr: string }
  | { type: 'notFound'; stderr: string };

export interface ToolRun {
  command: string;
  args: readonly string[];
  cwd: string;
  /** The whole environment of the tool: nothing of the hub's own is passed on. */
  env: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** Bytes of standard output past which the tool is stopped. */
  maxOutputBytes: number;
}

const MAX_STDERR_BYTES = 64 * 1024;

/** Returns how a tool run ended, with its output (stderr is kept to its last 64 KiB). */
export function runTool(run: ToolRun): Promise<ToolOutcome> {
  return new Promise((resolve) => {
    const child = spawn(run.command, [...run.args], {
      cwd: run.cwd,
      env: { ...run.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let ended: ToolOutcome['type'] | undefined;
    const stop = (why: 'timeout' | 'tooLarge') => {
      if (ended !== undefined) return;
      ended = why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => stop('timeout'), run.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > run.maxOutputBytes) stop('tooLarge');
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-MAX_STDERR_BYTES);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      ended ??= 'notFound';
      resolve({ type: 'notFound', stderr: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (ended === 'notFound') return;
      if (ended === 'timeout' || ended === 'tooLarge') return resolve({ type: ended, stderr });
      if (code !== 0) return resolve({ type: 'failed', exitCode: code, stderr });
      resolve({ type: 'ok', stdout: Buffer.concat(out).toString('utf8'), stderr });
    });
  });
}
