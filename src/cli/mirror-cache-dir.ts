import { homedir } from 'node:os';
import { join } from 'node:path';

/** How `--help` names the default of `--cache-dir`. */
export const defaultMirrorCacheDirText = '$XDG_CACHE_HOME/gitfleet/mirrors, else ~/.cache/gitfleet/mirrors';

/**
 * Returns the directory of the mirrors of remote repositories when `--cache-dir` is not given,
 * the one default of the hub, the agent and status: $XDG_CACHE_HOME/gitfleet/mirrors, else
 * ~/.cache/gitfleet/mirrors. Each mirror in it is keyed by its URL and its user (the hub, an
 * agent's cluster, status), so none shares a mirror with another.
 */
export function defaultMirrorCacheDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return join(env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'gitfleet', 'mirrors');
}
