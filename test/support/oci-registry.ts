// A real OCI registry on 127.0.0.1 for the template source tests (docs/sources.md#charts-from-an-oci-registry):
// go-containerregistry's registry, built once by test/tools/build-oci-registry.sh into
// ~/.cache/gitfleet/oci-registry-<version>/bin, started per test file on a free port. Charts are
// packaged and pushed with the real helm, as a user publishes them.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { writeFiles } from './chart-fixtures.js';
import { tempDir } from './temp-dirs.js';

const repoRoot = join(new URL('.', import.meta.url).pathname, '../../..');

/** A registry started for a test: its host:port, and how to stop it. */
export interface TestRegistry {
  host: string;
  stop(): void;
}

/** Returns the registry's binary, built once, or why there is none. */
export function ociRegistryBinary(): string | { missing: string } {
  try {
    const out = execFileSync('bash', [join(repoRoot, 'test/tools/build-oci-registry.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return join(out.trim().split('\n').pop()!, 'oci-registry');
  } catch (e) {
    return {
      missing: `test/tools/build-oci-registry.sh did not build the registry: ${(e as Error).message}`,
    };
  }
}

/** Starts the registry on 127.0.0.1 (a free port) and resolves once it listens. */
export async function startRegistry(binary: string): Promise<TestRegistry> {
  const child: ChildProcess = spawn(binary, ['-addr', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const lines = createInterface({ input: child.stdout! });
  const host = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`oci-registry exited (${code}) before listening`)));
  });
  return { host, stop: () => child.kill('SIGKILL') };
}

/** Packages chart files (path → text, under `<name>/`) with helm and pushes them; returns the digest helm reports. */
export function pushChart(opts: {
  helm: string;
  host: string;
  files: Record<string, string>;
  name: string;
}): string {
  const dir = tempDir('chart-push');
  writeFiles(dir, opts.files);
  const env = {
    HOME: dir,
    HELM_CACHE_HOME: join(dir, '.c'),
    HELM_CONFIG_HOME: join(dir, '.f'),
    HELM_DATA_HOME: join(dir, '.d'),
  };
  const packaged = execFileSync(opts.helm, ['package', opts.name, '--destination', 'out'], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  const tgz = /saved it to: (.*\.tgz)/.exec(packaged)?.[1];
  if (tgz === undefined) throw new Error(`helm package said: ${packaged}`);
  const pushed = execFileSync(opts.helm, ['push', tgz, `oci://${opts.host}/charts`, '--plain-http'], {
    cwd: dir,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const said = pushed + ' ';
  const digest = /Digest: (sha256:[0-9a-f]{64})/.exec(said)?.[1];
  if (digest === undefined) throw new Error(`helm push said: ${said}`);
  return digest;
}
