// The git command line for the remote tests: served bare repositories, clones, pushes and
// checks, with a fixed identity and no user or system configuration.
//
// Asynchronous on purpose: the test's git server runs in the test's own process, so a
// synchronous exec would block the event loop the server needs and hang both.
import { join } from 'node:path';
import { testGitEnv } from '../git-env.js';
import { runGit, runGitAsync } from '../support/run-git.js';

// Never asks for credentials: a test that would hang on a prompt fails instead.
export const cliEnv: NodeJS.ProcessEnv = {
  ...testGitEnv,
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '',
  SSH_ASKPASS: '',
};

export { removeTempDirs, tempDir } from '../support/temp-dirs.js';

/** What a git run that failed said. */
export interface GitFailure {
  status: number;
  stderr: string;
}

/** Runs git in `cwd` and resolves to its output with the trailing newline trimmed; rejects on failure. */
export function git(cwd: string, args: readonly string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
  return runGitAsync(args, { cwd, env: { ...cliEnv, ...extraEnv } });
}

/** Runs git expecting it to fail; resolves to its exit status and stderr (status 0 when it succeeded). */
export async function gitFails(cwd: string, args: readonly string[]): Promise<GitFailure> {
  try {
    await git(cwd, args);
  } catch (error) {
    const e = error as GitFailure;
    return { status: e.status, stderr: e.stderr };
  }
  return { status: 0, stderr: '' };
}

/** Runs git synchronously, for repositories no server in this process is involved with. */
export function gitSync(cwd: string, args: readonly string[]): string {
  return runGit(args, { cwd, env: cliEnv });
}

/** Creates `<root>/<name>` as a bare repository on branch main that accepts pushes over HTTP; returns its path. */
export function makeServedRepo(root: string, name: string): string {
  const gitdir = join(root, name);
  gitSync(root, ['-c', 'init.defaultBranch=main', 'init', '-q', '--bare', gitdir]);
  gitSync(gitdir, ['config', 'http.receivepack', 'true']);
  return gitdir;
}

/** Returns `-c http.extraHeader=…` arguments that send the token as a bearer token. */
export function bearerArgs(token: string): string[] {
  return ['-c', `http.extraHeader=Authorization: Bearer ${token}`];
}
