// The git command line for tests, run one way: a fixed environment (by default test/git-env.ts:
// a fixed identity and time, no user or system configuration), output with the trailing newline
// trimmed, and a failure thrown with git's exit status and stderr. The fixtures keep the call
// style their tests read best in (a repository object, a directory, variadic arguments) and run
// git through here.
import { execFile, execFileSync } from 'node:child_process';
import { testGitEnv } from '../git-env.js';

export interface GitRunOptions {
  /** The directory git runs in (default: the test's). */
  cwd?: string;
  /** The repository, passed as `--git-dir` (else git finds it from the directory). */
  gitdir?: string;
  /** Standard input. */
  input?: string | Uint8Array;
  /** The whole environment (default: testGitEnv). */
  env?: NodeJS.ProcessEnv;
}

/** A git run that failed: its exit status (-1 when it did not exit) and what it wrote to stderr. */
export type GitRunError = Error & { status: number; stderr: string };

const maxBuffer = 256 * 1024 * 1024;

/** Runs git and returns its output, trailing newline trimmed; throws a GitRunError when it fails. */
export function runGit(args: readonly string[], opts: GitRunOptions = {}): string {
  const argv = withGitdir(args, opts);
  try {
    return execFileSync('git', argv, {
      ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }),
      env: opts.env ?? testGitEnv,
      input: opts.input ?? '',
      stdio: 'pipe',
      maxBuffer,
    })
      .toString('utf8')
      .replace(/\n$/, '');
  } catch (error) {
    const e = error as { status?: number | null; stderr?: Buffer };
    throw failure(argv, e.status ?? -1, e.stderr?.toString('utf8') ?? String(error));
  }
}

/**
 * Runs git without blocking the event loop (a git server running in the test's own process
 * needs it: a synchronous run would hang both); resolves to its output, trailing newline trimmed.
 */
export function runGitAsync(args: readonly string[], opts: GitRunOptions = {}): Promise<string> {
  const argv = withGitdir(args, opts);
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      argv,
      {
        ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }),
        env: opts.env ?? testGitEnv,
        maxBuffer,
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        if (error) reject(failure(argv, typeof error.code === 'number' ? error.code : -1, stderr));
        else resolve(stdout.replace(/\n$/, ''));
      },
    );
    if (opts.input !== undefined) {
      // git may exit before it reads its input; that is its answer, not a failure to write.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(opts.input);
    }
  });
}

function withGitdir(args: readonly string[], opts: GitRunOptions): string[] {
  return opts.gitdir === undefined ? [...args] : ['--git-dir', opts.gitdir, ...args];
}

function failure(argv: readonly string[], status: number, stderr: string): GitRunError {
  return Object.assign(new Error(`git ${argv.join(' ')}: ${stderr}`), { status, stderr });
}
