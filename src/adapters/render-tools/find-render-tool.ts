// Finds a render tool's binary and asks it its version: the path named by a flag, else the one an
// environment variable names (GITFLEET_HELM, GITFLEET_KUSTOMIZE), else the first on PATH. The
// version is part of every render's identity (render-cache-key.ts): a new Helm is a visible change.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { runTool } from './run-tool.js';

export type RenderToolName = 'helm' | 'kustomize';

/** A tool found and asked its version. */
export interface RenderTool {
  name: RenderToolName;
  path: string;
  /** As the tool says it (`v4.3.2`). */
  version: string;
}

const ENV_NAMES: Record<RenderToolName, string> = { helm: 'GITFLEET_HELM', kustomize: 'GITFLEET_KUSTOMIZE' };
const VERSION_ARGS: Record<RenderToolName, string[]> = {
  helm: ['version', '--template', '{{.Version}}'],
  kustomize: ['version'],
};

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Returns where a tool is, or a sentence saying where it was looked for. */
export function locateRenderTool(
  name: RenderToolName,
  opts: { path?: string; env: Readonly<Record<string, string | undefined>> },
): { path: string } | { missing: string } {
  const named = opts.path ?? opts.env[ENV_NAMES[name]];
  if (named !== undefined && named !== '')
    return isExecutable(named) ? { path: named } : { missing: `${name}: ${named} is not an executable file` };
  for (const dir of (opts.env['PATH'] ?? '').split(delimiter)) {
    if (dir !== '' && isExecutable(join(dir, name))) return { path: join(dir, name) };
  }
  return { missing: `${name}: not found on PATH (name it with --${name} or ${ENV_NAMES[name]})` };
}

/** Returns the tool at a path with its version, or why it cannot be used. */
export async function probeRenderTool(
  name: RenderToolName,
  path: string,
): Promise<RenderTool | { missing: string }> {
  const home = await mkdtemp(join(tmpdir(), 'gitfleet-probe-'));
  try {
    const outcome = await runTool({
      command: path,
      args: VERSION_ARGS[name],
      cwd: home,
      env: { HOME: home, PATH: '/nonexistent' },
      timeoutMs: 20_000,
      maxOutputBytes: 4096,
    });
    if (outcome.type !== 'ok')
      return {
        missing: `${name}: ${path} did not say its version (${outcome.type}): ${outcome.stderr.trim()}`,
      };
    const version = outcome.stdout.trim().split('\n')[0] ?? '';
    return { name, path, version };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
