// Scratch space for a scenario: fleets, outputs and repositories, removed however it ends.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SourceFile } from '../../src/core/load/load-fleet.js';

/** Returns what `fn` returns, giving it a fresh directory that is removed afterwards. */
export async function withScratchDir<T>(name: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `gitfleet-bench-${name}-`));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes the files of a fleet repo under `dir`; returns `dir`. */
export function writeSourceDir(dir: string, files: readonly SourceFile[]): string {
  for (const file of files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
  return dir;
}
