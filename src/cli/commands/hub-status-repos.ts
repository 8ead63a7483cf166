// The hub's status repositories (loops/hub/status-repositories.ts): a mirror of each URL, kept
// beside the fleet repository's (keyed apart, holding only the branches under the prefix), or a
// local path read in place. The hub's token (--token-file, else $GITFLEET_GIT_TOKEN) is sent to
// every status repository URL. Heartbeats are fetched with the rest: the monitor reads a status
// repository's refs from its mirror, not from an advertisement.
import { setMaxListeners } from 'node:events';
import { readToken } from '../../adapters/remote/read-token.js';
import { remoteHubRepo, type RemoteHubRepoOptions } from '../../adapters/remote/remote-hub-repo.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { StatusRepositories } from '../../loops/hub/status-repositories.js';
import type { Logger } from '../../loops/runtime/logger.js';
import { localHubRepo, type HubRepo } from '../../adapters/remote/hub-repo.js';
import type { Clock } from '../../loops/runtime/clock.js';
import {
  repoMaintenance,
  roundRobinMaintenance,
  type RepoMaintenance,
} from '../../loops/runtime/repo-maintenance.js';
import { defaultMirrorCacheDir } from '../mirror-cache-dir.js';
import { remoteTimeoutsFromEnv } from './remote-timeouts-from-env.js';

/** Returns the hub's status repositories, opened as the fleet's assignment names them, and the maintenance of their mirrors. */
export async function hubStatusRepositories(
  opts: {
    tokenFile?: string;
    cacheDir?: string;
    branchPrefix?: string;
    /** How long a mirror's read stands at a pass (the hub: two cluster monitor periods; default: read at every pass). */
    statusTrustMs?: number;
  },
  deps: SideRepositoryDeps,
): Promise<{ repositories: StatusRepositories; maintenance: RepoMaintenance }> {
  const token = await readToken({ env: process.env, ...(opts.tokenFile ? { file: opts.tokenFile } : {}) });
  // Every status repository's refresh listens on the hub's stop signal at once: tens of them
  // are expected, not a leak (Node warns past ten).
  if (deps.signal) setMaxListeners(10_000, deps.signal);
  const branchPrefix = opts.branchPrefix ?? defaultBranchPrefix;
  // The mirrors take every heartbeat's replaced commit: each is repacked when due, after a pass.
  const side = sideRepositories({ ...opts, branchPrefix, token, mirrorKey: 'hub status' }, deps);
  const repositories = new StatusRepositories({
    branchPrefix: () => branchPrefix,
    log: deps.log,
    open: side.open,
    ...(opts.statusTrustMs !== undefined ? { trustMs: opts.statusTrustMs } : {}),
    now: () => deps.clock.now(),
  });
  return { repositories, maintenance: side.maintenance };
}

/** What the hub's side repositories (status, render) are opened with. */
export interface SideRepositoryDeps {
  log: Logger;
  clock: Clock;
  signal?: AbortSignal;
  onExchange?: RemoteHubRepoOptions['onExchange'];
  /** The process's rate-limit gates (rate-limit-gates-for.ts). */
  rateLimits?: RemoteHubRepoOptions['rateLimits'];
  /** Milliseconds of a monotonic clock, for the mirrors' maintenance budget (default performance.now). */
  elapsed?: () => number;
}

/** The time the side mirrors' repacks may take after one pass (the others wait for the next pass). */
const sideMaintenanceBudgetMs = 250;

/**
 * Returns how the hub opens a status or render repository (a mirror of a URL, keyed apart by
 * `mirrorKey`, holding only the branches under the prefix; a local path in place) and the
 * maintenance of the mirrors it opened, repacked when due after a pass.
 */
export function sideRepositories(
  opts: { cacheDir?: string; branchPrefix: string; token: string | undefined; mirrorKey: string },
  deps: SideRepositoryDeps,
): { open: (url: string) => HubRepo; maintenance: RepoMaintenance } {
  const mirrors = new Map<string, RepoMaintenance>();
  const open = (url: string): HubRepo => {
    if (!isRepoUrl(url)) return localHubRepo(url);
    const repo = remoteHubRepo({
      url,
      cacheDir: opts.cacheDir ?? defaultMirrorCacheDir(),
      mirrorKey: opts.mirrorKey,
      ...(opts.token ? { token: opts.token } : {}),
      // Such a repository holds no source branch: `main` is fetched when there is one.
      sourceRef: 'main',
      sourceOptional: true,
      branchPrefix: opts.branchPrefix,
      timeouts: remoteTimeoutsFromEnv(process.env),
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(deps.onExchange ? { onExchange: deps.onExchange } : {}),
      ...(deps.rateLimits ? { rateLimits: deps.rateLimits } : {}),
      onWarning: (m) => deps.log.warn(m),
    });
    mirrors.set(
      repo.gitdir,
      repoMaintenance({ gitdir: repo.gitdir, packCache: {}, clock: deps.clock, log: deps.log }),
    );
    return repo;
  };
  // A few mirrors after each pass, so that their repacks never hold the next pass back long.
  const maintenance = roundRobinMaintenance(() => [...mirrors.values()], {
    budgetMs: sideMaintenanceBudgetMs,
    elapsed: deps.elapsed ?? (() => performance.now()),
  });
  return { open, maintenance };
}
