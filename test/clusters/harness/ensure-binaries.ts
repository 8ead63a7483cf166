// The cluster binaries: built once by test/clusters/build.sh into a cache keyed by version
// (a warm run only checks they are there), or taken from GITFLEET_K8S_BIN when it is set.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the binaries are and whether kwok is among them. */
export interface Binaries {
  binDir: string;
  /** kwok plus its stage configuration are present. */
  kwok: boolean;
}

/** Returns the repository root (the nearest folder above this file holding package.json). */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('ensure-binaries: no package.json above the harness');
    dir = up;
  }
  return dir;
}

/** Returns what `binDir` holds. */
export function describeBinaries(binDir: string): Binaries {
  return { binDir, kwok: existsSync(join(binDir, 'kwok')) && existsSync(join(binDir, 'kwok-stages.yaml')) };
}

function runBuildScript(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // The build's progress goes to our stderr; its last stdout line is the binary folder.
    const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code === 0 && last !== '') resolve(last);
      else reject(new Error(`${script} failed (exit ${code}); its output is above`));
    });
  });
}

/** Builds the binaries if needed and returns where they are. */
export async function ensureBinaries(): Promise<Binaries> {
  const given = process.env['GITFLEET_K8S_BIN'];
  const binDir =
    given !== undefined && given !== ''
      ? given
      : await runBuildScript(join(repoRoot(), 'test/clusters/build.sh'));
  for (const b of ['etcd', 'kube-apiserver']) {
    if (!existsSync(join(binDir, b))) throw new Error(`${binDir}: ${b} is missing`);
  }
  return describeBinaries(binDir);
}
