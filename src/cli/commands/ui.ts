// `gitfleet ui --repo <path|url> [--port P] [--host H] [--interval 10s]`: the read-only web
// dashboard (docs/dashboard.md). The composition root of the dashboard: it opens the repository
// (a URL through the same fetched mirror `status` uses), builds the service over the readers the
// other commands use (status rows, `gitfleet log`'s reading, the diff of `gitfleet diff`), serves
// it on 127.0.0.1 and tells every open page when a branch moved: a local repository by watching
// its refs, a URL by fetching it every --interval.
import { uiSpec } from './ui-spec.js';
import { statusRepositoryOpener } from './open-status-repository.js';
import { fileURLToPath } from 'node:url';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { isLoopbackHost, startUiServer } from '../../adapters/http/ui-server.js';
import { redactUrl } from '../../adapters/remote/redact-secrets.js';
import { watchLocalRefs } from '../../adapters/watch/watch-local-refs.js';
import { readToken } from '../../adapters/remote/read-token.js';
import { remoteHubRepo } from '../../adapters/remote/remote-hub-repo.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { listRefs } from '../../adapters/git/list-refs.js';
import { localGitdir } from '../../adapters/remote/hub-repo.js';
import { DashboardService } from '../../loops/ui/dashboard-service.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { fleetBranchPrefix } from '../fleet-branch-prefix.js';
import { defaultMirrorCacheDir } from '../mirror-cache-dir.js';
import type { Io } from '../io.js';
import { readLog } from './log.js';
import { commandLog } from '../command-log.js';
import type { Logger, LogLevel } from '../../loops/runtime/logger.js';

/** `gitfleet ui`: parses its command line and serves the dashboard until interrupted. */
export const uiCommand = defineCommand({
  spec: uiSpec,
  run: ({ values }, io) =>
    runUi(
      {
        repo: values.repo,
        port: values.port,
        host: values.host,
        intervalMs: values.interval,
        ...(values['branch-prefix'] !== undefined ? { branchPrefix: values['branch-prefix'] } : {}),
        ...(values['token-file'] !== undefined ? { tokenFile: values['token-file'] } : {}),
        ...(values['cache-dir'] !== undefined ? { cacheDir: values['cache-dir'] } : {}),
        logLevel: values['log-level'],
      },
      io,
    ),
});

export interface UiOptions {
  repo: string;
  port: number;
  host: string;
  intervalMs: number;
  branchPrefix?: string;
  tokenFile?: string;
  /** For a URL: where its mirror lives (default: defaultMirrorCacheDir). */
  cacheDir?: string;
  /** The least severe lines logged on stderr (default info). */
  logLevel?: LogLevel;
}

/** The shipped page's folder: `ui/` at the package's root (this file is build/src/cli/commands/ui.js). */
const staticRoot = fileURLToPath(new URL('../../../../ui', import.meta.url));

/** The dashboard's JSON API: one route per page. */
function dashboardApi(service: DashboardService): Parameters<typeof startUiServer>[0]['api'] {
  return {
    overview: () => service.overview(),
    matrix: () => service.matrix(),
    templates: () => service.templates(),
    template: (params) => service.template(params.get('key') ?? ''),
    cluster: (params) => service.cluster(params.get('name') ?? ''),
    rollouts: () => service.rollouts(),
    evictions: () => service.evictions(),
    commit: (params) => service.commit(params.get('rev') ?? 'HEAD'),
  };
}

/**
 * Returns the listener for "a branch moved": one read at a time; moves during a read (a hub pass
 * moves many refs) make one more read after it.
 */
function readAgainOnMove(read: () => Promise<void>): () => void {
  let reading = false;
  let again = false;
  return () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    void (async () => {
      do {
        again = false;
        await read();
      } while (again);
      reading = false;
    })();
  };
}

/** Serves the dashboard until SIGINT or SIGTERM; returns the exit code. */
export async function runUi(opts: UiOptions, io: Io): Promise<number> {
  // The repository as every line shows it: a URL's user name and password never printed.
  const shown = redactUrl(opts.repo);
  const { log } = commandLog(io, 'gitfleet ui', opts.logLevel ? { level: opts.logLevel } : {});
  const remote = isRepoUrl(opts.repo) ? await openMirror(opts) : undefined;
  const dir = remote?.gitdir ?? opts.repo;
  const gitdir = remote?.gitdir ?? localGitdir(opts.repo);
  const prefix = opts.branchPrefix ?? (remote ? defaultBranchPrefix : await fleetBranchPrefix(dir));
  const service = new DashboardService({
    repo: remote ? new URL(opts.repo).origin + new URL(opts.repo).pathname : opts.repo,
    gitdir,
    branchPrefix: prefix,
    // The hub's pass moves the bindings branch when a status moves, which makes the page read again.
    openStatusRepository: statusRepositoryOpener({
      ...(opts.tokenFile ? { tokenFile: opts.tokenFile } : {}),
      branchPrefix: prefix,
      mirrorKey: 'ui',
    }),
    history: async (object) => (await readLog({ repo: dir, branchPrefix: prefix, object })).entries,
    now: () => new Date(),
  });
  const server = await startUiServer({
    host: opts.host,
    port: opts.port,
    staticRoot,
    api: dashboardApi(service),
  });
  const moved = readAgainOnMove(async () => {
    log.debug?.(`a branch of ${shown} moved: reading it again`);
    try {
      server.broadcast('changed', { generation: await service.reload() });
    } catch (error) {
      log.error(`reading ${shown} again failed: ${(error as Error).message}`);
    }
  });
  // The first read starts now, so the first page finds it done or under way; then the overview of
  // templates (every template's explanation), the page a browser opens first.
  service.templates().catch(() => undefined);
  const stopWatching = remote
    ? pollRemote(remote, opts.intervalMs, moved, log)
    : await watchRefs(gitdir, moved);
  if (!isLoopbackHost(opts.host)) {
    log.warn(
      `--host ${opts.host} is not a loopback address: the read-only dashboard (every cluster, template and rendered object of the fleet, Secret values redacted) is open to anyone who can reach this machine on port ${new URL(server.url).port}`,
    );
  }
  io.out(`gitfleet ui: serving ${shown} at ${server.url}/ (read-only; Ctrl-C stops)`);
  await io.untilInterrupted();
  await stopWatching();
  await server.close();
  return exitCodes.ok;
}

async function watchRefs(gitdir: string, moved: () => void): Promise<() => Promise<void>> {
  const watcher = await watchLocalRefs({ gitdir, refs: ['refs/heads/'], onChange: moved });
  return () => watcher.close();
}

// A URL is fetched every interval; the page hears of it only when a ref actually moved.
function pollRemote(
  mirror: { gitdir: string; refresh(): Promise<unknown> },
  intervalMs: number,
  moved: () => void,
  log: Logger,
): () => Promise<void> {
  let last: string | undefined;
  let running = Promise.resolve();
  const poll = async (): Promise<void> => {
    try {
      await mirror.refresh();
      const refs = JSON.stringify([...(await listRefs(mirror.gitdir, 'refs/')).entries()]);
      if (last !== undefined && refs !== last) moved();
      last = refs;
    } catch (error) {
      log.error(
        `fetching the repository failed (the page keeps what it showed): ${(error as Error).message}`,
      );
    }
  };
  running = poll();
  const timer = setInterval(() => {
    running = running.then(poll);
  }, intervalMs);
  return async () => {
    clearInterval(timer);
    await running;
  };
}

async function openMirror(opts: UiOptions): Promise<{ gitdir: string; refresh(): Promise<unknown> }> {
  const token = await readToken({ env: process.env, ...(opts.tokenFile ? { file: opts.tokenFile } : {}) });
  const mirror = remoteHubRepo({
    url: opts.repo,
    cacheDir: opts.cacheDir ?? defaultMirrorCacheDir(),
    mirrorKey: 'ui',
    ...(token ? { token } : {}),
    sourceRef: 'main',
    branchPrefix: opts.branchPrefix ?? defaultBranchPrefix,
  });
  await mirror.refresh();
  return mirror;
}
