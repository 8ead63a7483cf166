// The hub's setup for a remote repository: a fetched mirror in a cache directory, polling at
// the resync interval, and optionally the push webhook as a hint to look now. The token comes
// from $GITFLEET_GIT_TOKEN or --token-file, the webhook secret from --webhook-secret-file or
// $GITFLEET_WEBHOOK_SECRET; neither is ever taken from the command line.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readToken } from '../../adapters/remote/read-token.js';
import { remoteHubRepo } from '../../adapters/remote/remote-hub-repo.js';
import { pollRemote, type Poller } from '../../adapters/watch/poll-remote.js';
import { startWebhookServer, type WebhookServer } from '../../adapters/watch/start-webhook-server.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { Trigger } from '../../loops/runtime/trigger.js';
import type { HubRepo } from '../../loops/hub/hub-repo.js';

export interface RemoteHubOptions {
  repo: string;
  sourceRef: string;
  once: boolean;
  intervalMs: number;
  tokenFile?: string;
  cacheDir?: string;
  webhookPort?: number;
  webhookSecretFile?: string;
}

/** Returns the mirror-backed repository and its triggers (polling, webhook) for a remote. */
export async function remoteHubSetup(
  opts: RemoteHubOptions,
  log: Logger,
): Promise<{ repo: HubRepo; triggers: Trigger[] }> {
  const token = await readToken({ env: process.env, ...(opts.tokenFile ? { file: opts.tokenFile } : {}) });
  const repo = remoteHubRepo({
    url: opts.repo,
    cacheDir:
      opts.cacheDir ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gitfleet', 'mirrors'),
    ...(token ? { token } : {}),
    sourceRef: opts.sourceRef,
    branchPrefix: 'gitfleet/',
  });
  if (opts.once) return { repo, triggers: [] };
  const triggers: Trigger[] = [pollTrigger(repo, opts.intervalMs, log)];
  if (opts.webhookPort !== undefined) triggers.push(await webhookTrigger(opts, opts.webhookPort));
  return { repo, triggers };
}

function pollTrigger(repo: ReturnType<typeof remoteHubRepo>, intervalMs: number, log: Logger): Trigger {
  let poller: Poller | undefined;
  return {
    name: `poll ${repo.url} every ${intervalMs} ms`,
    start: (notify) => {
      poller = pollRemote({
        intervalMs,
        onError: (error) => log.warn(`poll ${repo.url}: ${(error as Error).message}`),
        check: async () => {
          if ((await repo.fetchRefs()).moved.length > 0) notify('remote refs moved');
        },
      });
    },
    stop: async () => poller?.stop(),
  };
}

async function webhookTrigger(opts: RemoteHubOptions, port: number): Promise<Trigger> {
  const secret = opts.webhookSecretFile
    ? (await readFile(opts.webhookSecretFile, 'utf8')).trim()
    : (process.env.GITFLEET_WEBHOOK_SECRET ?? '');
  if (!secret)
    throw new Error('the webhook needs a secret: --webhook-secret-file or $GITFLEET_WEBHOOK_SECRET');
  let server: WebhookServer | undefined;
  return {
    name: `push webhook on port ${port}`,
    start: async (notify) => {
      server = await startWebhookServer({
        port,
        secret,
        onPush: (push) => notify(`${push.provider} push ${push.ref ?? ''}`.trim()),
      });
    },
    stop: async () => server?.close(),
  };
}
