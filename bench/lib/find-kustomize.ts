// Where kustomize comes from: kubectl's built-in one (`kubectl kustomize DIR`) from the test
// clusters' binary cache, else a kustomize built from Go modules into that cache, else PATH.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** A kustomize to run: `command ...args DIR` prints the build of DIR. */
export interface Kustomize {
  command: string;
  args: string[];
  /** e.g. `kubectl v1.34.4 (kustomize v5.7.1)`. */
  label: string;
}

const cache = process.env['GITFLEET_CACHE'] ?? join(homedir(), '.cache', 'gitfleet');

/** Returns the kustomize to benchmark against, or null when none is installed. */
export function findKustomize(): Kustomize | null {
  for (const kubectl of candidates('k8s-', 'kubectl')) {
    const version = run(kubectl, ['version', '--client']);
    if (version === null) continue;
    const client = /Client Version: (\S+)/.exec(version)?.[1] ?? '?';
    const kustomize = /Kustomize Version: (\S+)/.exec(version)?.[1] ?? '?';
    return { command: kubectl, args: ['kustomize'], label: `kubectl ${client} (kustomize ${kustomize})` };
  }
  for (const kustomize of candidates('kustomize-', 'kustomize')) {
    const version = run(kustomize, ['version']);
    if (version !== null)
      return { command: kustomize, args: ['build'], label: `kustomize ${version.trim()}` };
  }
  return null;
}

function candidates(prefix: string, binary: string): string[] {
  const cached = existsSync(cache)
    ? readdirSync(cache)
        .filter((d) => d.startsWith(prefix))
        .sort()
        .reverse()
        .map((d) => join(cache, d, 'bin', binary))
    : [];
  return [...cached.filter((path) => existsSync(path)), binary];
}

function run(command: string, args: string[]): string | null {
  try {
    return execFileSync(command, args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  } catch {
    return null;
  }
}
