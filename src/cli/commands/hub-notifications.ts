// The hub's notifier (docs/notifications.md): receivers of the fleet's NotificationPolicies (a
// webhook, Slack, Teams, or a forge's commit statuses), their secrets read from
// --notifications-secrets-dir, or from Secrets of the hub's namespace when it runs in a Pod.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { forgeReceiver } from '../../adapters/notify/forge-receiver.js';
import { httpReceiver } from '../../adapters/notify/http-receiver.js';
import type { RateLimitGates } from '../../adapters/remote/rate-limit-gate.js';
import { kubeSecretKey } from '../../adapters/notify/kube-secret-key.js';
import type { SecretReaders } from '../../adapters/notify/read-receiver-secret.js';
import { defaultServiceAccountDir, loadKubeConfig } from '../../adapters/kube/load-kube-config.js';
import { KubeHttp } from '../../adapters/kube/kube-http.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import type { Clock } from '../../loops/runtime/clock.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { Metrics } from '../../loops/runtime/metrics.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import { startNotifyWorker, type NotifyWorker, type StatusBranches } from '../../loops/hub/notify-worker.js';
import {
  isForgeReceiverType,
  type ForgeReceiverSpec,
  type NotificationReceiverSpec,
} from '../../core/model/notification-policy.js';
import { defaultHubIdentity } from '../../core/apply-plan/hub-identity.js';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';

/** The hub's options of the notifier. */
export interface HubNotificationsOptions {
  /** Where the files NotificationPolicies name are read (docs/notifications.md). */
  notificationsSecretsDir?: string;
}

/** Returns the notifier's options of the command line. */
export function notificationsOf(values: {
  'notifications-secrets-dir'?: string | undefined;
}): HubNotificationsOptions {
  const dir = values['notifications-secrets-dir'];
  return dir !== undefined ? { notificationsSecretsDir: dir } : {};
}

/** Starts the hub's notifier, on the repository the passes write and the hub's prefix, signing as the hub. */
export function startHubNotifications(
  opts: { notificationsSecretsDir?: string; branchPrefix?: string },
  ctx: {
    repo: HubRepo;
    setup: { repo: { branchPrefix?: string } };
    clock: Clock;
    log: Logger;
    observe: { metrics: Metrics };
    deps: { random?: () => number; identity?: { name: string; email: string } };
    signing: { signer?: CommitSigner };
    /** The process's rate-limit gates: a forge receiver's API is gated with the hub's other requests. */
    rateLimits?: RateLimitGates;
    /** Aborted when the hub stops: a forge receiver's request in flight ends. */
    signal?: AbortSignal;
    /** The hub's status repositories: status branches there are read for events too. */
    statusRepositories?: StatusBranches;
  },
): NotifyWorker {
  const identity = ctx.deps.identity ?? defaultHubIdentity;
  const { clock, signer } = { clock: ctx.clock, signer: ctx.signing.signer };
  const secrets: SecretReaders = {
    ...(opts.notificationsSecretsDir !== undefined ? { dir: opts.notificationsSecretsDir } : {}),
    ...inClusterSecrets(),
  };
  return startNotifyWorker({
    repo: ctx.repo,
    branchPrefix: opts.branchPrefix ?? ctx.setup.repo.branchPrefix ?? defaultBranchPrefix,
    clock,
    random: ctx.deps.random ?? Math.random,
    log: ctx.log,
    metrics: ctx.observe.metrics,
    ...(signer ? { signer } : {}),
    ...(ctx.statusRepositories ? { statusRepositories: ctx.statusRepositories } : {}),
    author: () => ({ ...identity, time: Math.floor(clock.now() / 1000), tzOffsetMinutes: 0 }),
    receiverOf: (policy, spec) =>
      isForgeReceiver(spec)
        ? forgeReceiver({
            policy: policy.name,
            spec,
            secrets,
            now: () => clock.now(),
            ...(ctx.rateLimits ? { rateLimits: ctx.rateLimits } : {}),
            ...(ctx.signal ? { signal: ctx.signal } : {}),
          })
        : httpReceiver({ policy: policy.name, spec, secrets }),
  });
}

/** How long `hub --once` waits for its pass's notifications before it stops delivering. */
export const onceDeliveryTimeoutMs = 15_000;

/**
 * Delivers what the --once pass produced, waiting at most onceDeliveryTimeoutMs (and the delivery
 * in flight's own deadline), then records what was sent; what was not is sent by the next run.
 */
export async function deliverOnce(notifier: NotifyWorker, log: Logger): Promise<void> {
  const left = await notifier.drain(onceDeliveryTimeoutMs);
  if (left > 0)
    log.warn(
      `notifications: ${left} event(s) not delivered within ${onceDeliveryTimeoutMs / 1000} s: the next run sends them`,
    );
}

// In a Pod, a receiver's secretRef is read from the hub's namespace with its ServiceAccount; the
// client is made at the first such read.
function inClusterSecrets(env: NodeJS.ProcessEnv = process.env): Pick<SecretReaders, 'secretKey'> {
  if (!env['KUBERNETES_SERVICE_HOST']) return {};
  const dir = env['GITFLEET_SERVICE_ACCOUNT_DIR'] || defaultServiceAccountDir;
  let reader: Promise<(name: string, key: string) => Promise<string | undefined>> | undefined;
  return {
    secretKey: async (name, key) => {
      reader ??= loadKubeConfig({ inClusterDefault: true }).then((credentials) => {
        const namespace = readFileSync(join(dir, 'namespace'), 'utf8').trim();
        const http = new KubeHttp(credentials.kc, {
          maxSockets: 1,
          ...(credentials.bearerToken ? { bearerToken: credentials.bearerToken } : {}),
        });
        return kubeSecretKey(http, namespace);
      });
      return (await reader)(name, key);
    },
  };
}

function isForgeReceiver(spec: NotificationReceiverSpec): spec is ForgeReceiverSpec {
  return isForgeReceiverType(spec.type);
}
