// What the fault tests share: a generated fleet committed to a bare repository with
// `git fast-import` (large enough that a hub pass takes a while, so a kill lands inside it), the
// real CLI run as a child process, and readers of what the hub wrote.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { generateFleet, type FleetShape } from '../../bench/generate-fleet.js';
import type { SourceFile } from '../../src/core/load/load-fleet.js';
import { testGitEnv } from '../git-env.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

export const repoRoot = join(new URL('.', import.meta.url).pathname, '../../..');
const cli = join(repoRoot, 'bin/gitfleet.js');
/** Returns a new scratch directory, removed by removeScratch. */
export function scratchDir(prefix: string): string {
  return tempDir(`fault-${prefix}`);
}

/** Removes every scratch directory made so far. */
export const removeScratch = removeTempDirs;

/** Runs git on a git directory and returns its output, trailing newline trimmed. */
export function gitAt(gitdir: string, args: readonly string[], input?: string): string {
  return execFileSync('git', ['--git-dir', gitdir, ...args], {
    env: testGitEnv,
    input: input ?? '',
    maxBuffer: 1 << 28,
  })
    .toString('utf8')
    .replace(/\n$/, '');
}

/** Returns a bare repository holding a generated fleet of the given shape on main. */
export function generatedFleetRepo(shape: FleetShape): string {
  const gitdir = join(scratchDir('fleet'), 'fleet.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', gitdir], { env: testGitEnv });
  commitFleetFiles(gitdir, generateFleet(shape), 'initial fleet');
  return gitdir;
}

/** Commits the files on main (on top of main when it exists) with git fast-import. */
export function commitFleetFiles(gitdir: string, files: readonly SourceFile[], message: string): void {
  const hasMain = gitAt(gitdir, ['for-each-ref', 'refs/heads/main']) !== '';
  const parts = ['commit refs/heads/main', 'committer Fleet <fleet@example.com> 1700000000 +0000'];
  parts.push(`data ${Buffer.byteLength(message)}`, message);
  if (hasMain) parts.push('from refs/heads/main^0');
  for (const f of files)
    parts.push(`M 100644 inline ${f.path}`, `data ${Buffer.byteLength(f.content)}`, f.content);
  gitAt(gitdir, ['fast-import', '--quiet'], `${parts.join('\n')}\n`);
}

/** Returns the generated fleet's files with every image tag bumped, so every cluster changes. */
export function bumpedFleet(shape: FleetShape): SourceFile[] {
  return generateFleet(shape)
    .filter((f) => f.content.includes(':1.0.0'))
    .map((f) => ({ path: f.path, content: f.content.replaceAll(':1.0.0', ':1.0.1') }));
}

/** Returns a copy of a bare repository in a new scratch directory. */
export function copyRepo(gitdir: string): string {
  const copy = join(scratchDir('copy'), 'fleet.git');
  cpSync(gitdir, copy, { recursive: true });
  return copy;
}

/** Starts the gitfleet CLI as a child process (output captured, not inherited). */
export function startCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, [cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...testGitEnv, ...env },
  });
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Returns how a child process ended and what it printed. */
export function exitOf(child: ChildProcess): Promise<Exit> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on('data', (c: Buffer) => out.push(c));
  child.stderr?.on('data', (c: Buffer) => err.push(c));
  return new Promise((resolve) =>
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    ),
  );
}

/** Runs the CLI to its end and returns how it ended. */
export function runCliProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Exit> {
  return exitOf(startCli(args, env));
}

/** Returns every ref under refs/heads/gitfleet/ and the tree of its commit. */
export function hubTrees(gitdir: string): Map<string, string> {
  const out = gitAt(gitdir, ['for-each-ref', '--format=%(refname) %(tree)', 'refs/heads/gitfleet/']);
  return new Map(
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ') as [string, string]),
  );
}

/** Returns the paths of every `*.lock` file under the git directory's refs. */
export function leftoverLocks(gitdir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.lock')) found.push(path);
    }
  };
  walk(join(gitdir, 'refs'));
  return found;
}

/** Returns what `git fsck` says is wrong (empty when the repository is sound). */
export function fsckProblems(gitdir: string): string {
  try {
    execFileSync('git', ['--git-dir', gitdir, 'fsck', '--no-progress', '--no-dangling'], {
      env: testGitEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return '';
  } catch (error) {
    const e = error as { stdout?: Buffer; stderr?: Buffer };
    return `${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}` || String(error);
  }
}
