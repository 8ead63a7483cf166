// `gitfleet ui` as a user runs it: bin/gitfleet.js in a child process, on a free port, its URL
// read from the line it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { gitEnv, repoRoot } from '../loops/hub/hub-fixture.js';

/** A running dashboard process. */
export interface UiProcess {
  url: string;
  /** Stops it with SIGTERM; resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** Starts `gitfleet ui --repo <repo> --port 0` and resolves once it prints its URL. */
export async function startUi(repo: string, extra: readonly string[] = []): Promise<UiProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(repoRoot, 'bin/gitfleet.js'), 'ui', '--repo', repo, '--port', '0', ...extra],
    { env: gitEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const watchdog = setTimeout(
      () => reject(new Error(`gitfleet ui printed no URL: ${out}${stderr}`)),
      60_000,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = out.match(/at (http:\/\/\S+?)\/? /);
      if (m) {
        clearTimeout(watchdog);
        resolve(m[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(watchdog);
      reject(new Error(`gitfleet ui exited with ${code}: ${stderr}`));
    });
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
