// The hub's render repositories (loops/hub/render-repositories.ts): a mirror of each URL, kept
// beside the fleet repository's (keyed apart, holding only the branches under the prefix), or a
// local path written in place. The hub sends --render-token-file to every render repository URL
// (else its --token-file, else $GITFLEET_GIT_TOKEN): it needs write access to their cluster
// branches. Each URL has its own rate-limit gate (the process's gates are per URL). A mirror's
// read stands for one --interval (the hub is the only writer of those branches): a pass over a
// source push reads none that the last --interval read (render-repositories.ts).
import { readToken } from '../../adapters/remote/read-token.js';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { RenderRepositories } from '../../loops/hub/render-repositories.js';
import type { StatusRepositories } from '../../loops/hub/status-repositories.js';
import { hubStatusRepositories, sideRepositories, type SideRepositoryDeps } from './hub-status-repos.js';
import type { RepoMaintenance } from '../../loops/runtime/repo-maintenance.js';

/** Returns the hub's render repositories, opened as the fleet names them, and the maintenance of their mirrors. */
export async function hubRenderRepositories(
  opts: {
    tokenFile?: string;
    renderTokenFile?: string;
    cacheDir?: string;
    branchPrefix?: string;
    /** The hub's --interval: how long a render repository's read stands (default: read at every pass). */
    intervalMs?: number;
  },
  deps: SideRepositoryDeps,
): Promise<{ repositories: RenderRepositories; maintenance: RepoMaintenance }> {
  const file = opts.renderTokenFile ?? opts.tokenFile;
  const token = await readToken({ env: process.env, ...(file ? { file } : {}) });
  const branchPrefix = opts.branchPrefix ?? defaultBranchPrefix;
  const side = sideRepositories({ ...opts, branchPrefix, token, mirrorKey: 'hub render' }, deps);
  return {
    repositories: new RenderRepositories({
      open: side.open,
      log: deps.log,
      ...(opts.intervalMs !== undefined ? { trustMs: opts.intervalMs } : {}),
      now: () => deps.clock.now(),
    }),
    maintenance: side.maintenance,
  };
}

/** Returns the hub's status and render repositories, and the maintenance of their mirrors after each pass. */
export async function hubSideRepositories(
  opts: Parameters<typeof hubRenderRepositories>[0] & Parameters<typeof hubStatusRepositories>[0],
  deps: Parameters<typeof hubRenderRepositories>[1],
): Promise<{
  statusRepositories: StatusRepositories;
  renderRepositories: RenderRepositories;
  maintenance: RepoMaintenance;
}> {
  const status = await hubStatusRepositories(opts, deps);
  const render = await hubRenderRepositories(opts, deps);
  return {
    statusRepositories: status.repositories,
    renderRepositories: render.repositories,
    maintenance: {
      afterPass: async () => {
        await status.maintenance.afterPass();
        return render.maintenance.afterPass();
      },
    },
  };
}
