// The hub's setup for a remote repository: a fetched mirror in a cache directory, polling at
// the resync interval, and optionally the push webhook as a hint to look now. The token comes
// from $GITFLEET_GIT_TOKEN or --token-file, the webhook secret from --webhook-secret-file or
// $GITFLEET_WEBHOOK_SECRET; neither is ever taken from the command line. Every request has the
// connect and silence limits of remote-timeouts-from-env.ts, every fetch, push and ls-refs its
// overall deadline, and each is aborted when `signal` fires (the hub is stopping). The webhook listens on 127.0.0.1 unless --webhook-addr says otherwise
// (0.0.0.0 in a Pod, behind the Service).
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { defaultMirrorCacheDir } from '../mirror-cache-dir.js';
import { ConfigError } from '../../core/model/config-error.js';
import { readFile } from 'node:fs/promises';
import { readToken } from '../../adapters/remote/read-token.js';
import { remoteHubRepo, type RemoteHubRepoOptions } from '../../adapters/remote/remote-hub-repo.js';
import { pollRemote, type Poller } from '../../adapters/watch/poll-remote.js';
import { startWebhookServer, type WebhookServer } from '../../adapters/watch/start-webhook-server.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { Trigger } from '../../loops/runtime/trigger.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import { remoteTimeoutsFromEnv } from './remote-timeouts-from-env.js';
import { heartbeatRefPrefix } from '../../core/publish/hub-refs.js';
import type { RefSnapshot } from '../../loops/hub/cluster-monitor.js';

export interface RemoteHubOptions {
  repo: string;
  sourceRef: string;
  once: boolean;
  intervalMs: number;
  tokenFile?: string;
  cacheDir?: string;
  webhookPort?: number;
  /** The webhook's bind address (default 127.0.0.1). */
  webhookAddr?: string;
  webhookSecretFile?: string;
  /** The prefix of the hub's branches (default gitfleet/): the mirror fetches and pushes only these. */
  branchPrefix?: string;
  /** Aborts the requests in flight: the hub is stopping. */
  signal?: AbortSignal;
  /** Told of each fetch and push (the metrics). */
  onExchange?: RemoteHubRepoOptions['onExchange'];
  /** The process's rate-limit gates (rate-limit-gates-for.ts). */
  rateLimits?: RemoteHubRepoOptions['rateLimits'];
  /** Whether a cluster's registration names its key (default: none does). */
  keyed?: (cluster: string) => boolean;
}

/** Returns the mirror-backed repository and its triggers (polling, webhook) for a remote. */
export async function remoteHubSetup(
  opts: RemoteHubOptions,
  log: Logger,
  /** The monotonic clock the cluster monitor reads (default: performance.now). */
  elapsed: () => number = () => performance.now(),
): Promise<{ repo: HubRepo; triggers: Trigger[]; observe?: () => RefSnapshot | undefined }> {
  const token = await readToken({ env: process.env, ...(opts.tokenFile ? { file: opts.tokenFile } : {}) });
  privateFiles();
  const quiet = quietHeartbeats(opts.branchPrefix ?? defaultBranchPrefix, opts.keyed);
  const repo = remoteHubRepo({
    url: opts.repo,
    cacheDir: opts.cacheDir ?? defaultMirrorCacheDir(),
    ...(token ? { token } : {}),
    sourceRef: opts.sourceRef,
    branchPrefix: opts.branchPrefix ?? defaultBranchPrefix,
    timeouts: remoteTimeoutsFromEnv(process.env),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onExchange ? { onExchange: opts.onExchange, elapsed } : {}),
    ...(opts.rateLimits ? { rateLimits: opts.rateLimits } : {}),
    onWarning: (m) => log.warn(m),
    quietRefs: quiet,
  });
  if (opts.once) return { repo, triggers: [] };
  // The cluster monitor reads what the remote advertised at the last poll that succeeded.
  let observed: RefSnapshot | undefined;
  const poll = pollTrigger(repo, opts.intervalMs, log, {
    fetched: (refs) => (observed = { at: elapsed(), refs }),
    // A heartbeat moving is for the monitor, which asks for a pass when a verdict changes:
    // it is no reason for a pass on its own.
    matters: (ref) => !ref.startsWith(heartbeatRefPrefix(opts.branchPrefix ?? defaultBranchPrefix)),
  });
  const triggers: Trigger[] = [poll];
  if (opts.webhookPort !== undefined) triggers.push(await webhookTrigger(opts, opts.webhookPort, log));
  return { repo, triggers, observe: () => observed };
}

/**
 * Returns which refs move without a fetch: the monitor reads heartbeats from the advertisement,
 * so a heartbeat moving is no reason to fetch, unless its cluster's registration names a key
 * (keyed): the monitor then checks the commit's signature (signed-liveness.ts), so it must be in
 * the mirror. A poll fetches at most once, whatever moved.
 */
export function quietHeartbeats(
  branchPrefix: string,
  keyed: (cluster: string) => boolean = () => false,
): (ref: string) => boolean {
  const heartbeats = heartbeatRefPrefix(branchPrefix);
  return (ref) => ref.startsWith(heartbeats) && !keyed(ref.slice(heartbeats.length));
}

function pollTrigger(
  repo: ReturnType<typeof remoteHubRepo>,
  intervalMs: number,
  log: Logger,
  hooks: { fetched: (refs: ReadonlyMap<string, string>) => void; matters: (ref: string) => boolean },
): Trigger {
  let poller: Poller | undefined;
  return {
    name: `poll ${repo.url} every ${intervalMs} ms`,
    start: (notify) => {
      poller = pollRemote({
        intervalMs,
        onError: (error, nextMs) =>
          log.warn(
            `poll ${repo.url}: ${(error as Error).message}; next check in ${(nextMs / 1000).toFixed(1)} s`,
          ),
        check: async () => {
          const { moved, remoteBranches } = await repo.fetchRefs();
          hooks.fetched(remoteBranches);
          if (moved.some((m) => hooks.matters(m.ref))) notify('remote refs moved');
        },
      });
    },
    stop: async () => poller?.stop(),
  };
}

/**
 * Makes every file this process creates private to the user (umask 077): a process working on
 * a remote writes only its mirror, which holds the fleet, Secrets included.
 */
export function privateFiles(): void {
  process.umask(process.umask() | 0o077);
}

async function webhookTrigger(opts: RemoteHubOptions, port: number, log: Logger): Promise<Trigger> {
  const secret = opts.webhookSecretFile
    ? (await readFile(opts.webhookSecretFile, 'utf8')).trim()
    : (process.env.GITFLEET_WEBHOOK_SECRET ?? '');
  if (!secret)
    throw new ConfigError(
      'MissingSecret',
      'webhook: needs a secret: --webhook-secret-file or $GITFLEET_WEBHOOK_SECRET',
    );
  let server: WebhookServer | undefined;
  const host = opts.webhookAddr ?? '127.0.0.1';
  return {
    name: `push webhook on ${host} port ${port}`,
    start: async (notify) => {
      server = await startWebhookServer({
        host,
        port,
        secret,
        onPush: (push) => notify(`${push.provider} push ${push.ref ?? ''}`.trim()),
      });
      log.info(`webhook listening on ${server.url}`);
    },
    stop: async () => server?.close(),
  };
}
