// The render tools for tests: built (or found built) by tools/go-render/build.sh into
// ~/.cache/gitfleet/<tool>-<version>/bin, as scripts/run-tests.js builds them before the suite.
// A test that needs them skips, saying why, only when the build cannot run (no Go).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const repoRoot = join(new URL('.', import.meta.url).pathname, '../../..');

/** The tools' binaries, or why there are none. */
export type RenderToolPaths = { helm: string; kustomize: string } | { missing: string };

let found: RenderToolPaths | undefined;

/** Returns the paths of helm and kustomize, building them once when missing. */
export function renderTools(): RenderToolPaths {
  if (found) return found;
  try {
    const out = execFileSync(join(repoRoot, 'tools/go-render/build.sh'), {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const dirs = new Map(
      out
        .trim()
        .split('\n')
        .map((l) => l.split(' ') as [string, string]),
    );
    found = { helm: join(dirs.get('helm')!, 'helm'), kustomize: join(dirs.get('kustomize')!, 'kustomize') };
  } catch (e) {
    found = { missing: `tools/go-render/build.sh did not build helm and kustomize: ${(e as Error).message}` };
  }
  return found;
}
