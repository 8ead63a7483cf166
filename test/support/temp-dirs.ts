// Scratch directories for tests: made under the system's temp folder, removed together at the
// end of a test file (each test file runs in its own process).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** Returns a new empty temp directory; `removeTempDirs` removes every one made. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `gitfleet-${prefix}-`));
  made.push(dir);
  return dir;
}

/** Removes every temp directory made so far in this process. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
