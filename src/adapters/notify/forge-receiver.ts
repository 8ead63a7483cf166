// The github, gitlab and gitea receivers of a NotificationPolicy (docs/notifications.md#commit-statuses):
// each event routed to one sets a commit status on the event's source commit, through the
// forge-status adapter's client (the one the hub's commit-status worker posts with): the context
// and state of core/notify/forge-status-of-event.ts, the token read from its file or Secret at each
// delivery. A status the receiver set already on that commit and context is not set again, and no
// context gets more than 1,000 statuses from it (GitHub's cap per commit and context).
import { commitStatusClient, type CommitStatusClient } from '../forge-status/commit-status-client.js';
import type { ForgeTimeouts } from '../forge-status/forge-request.js';
import { ForgeStatusError } from '../forge-status/forge-status-error.js';
import type { RateLimitGates } from '../remote/rate-limit-gate.js';
import { RateLimitedError } from '../remote/rate-limited-error.js';
import type { ForgeReceiverSpec } from '../../core/model/notification-policy.js';
import type { FleetEvent } from '../../core/notify/fleet-event.js';
import { forgeStatusOfEvent } from '../../core/notify/forge-status-of-event.js';
import type { DeliveryOutcome, NotificationReceiver } from '../../core/notify/notification-receiver.js';
import { NotificationSecretError } from './notification-secret-error.js';
import { readReceiverSecret, type SecretReaders } from './read-receiver-secret.js';

export interface ForgeReceiverOptions {
  policy: string;
  spec: ForgeReceiverSpec;
  secrets: SecretReaders;
  /** The process's gates: the API base keys this forge's. */
  rateLimits?: RateLimitGates;
  /** The limits of one request (default: 5 s to connect, 10 s of silence, 10 s in all). */
  timeouts?: ForgeTimeouts;
  /** Aborting it ends the requests in flight (the hub is stopping). */
  signal?: AbortSignal;
  /** Epoch ms, for the wait a rate limit asks for (default Date.now). */
  now?: () => number;
}

/** GitHub keeps at most this many statuses per commit and context. */
export const maxStatusesPerContext = 1000;

/** The statuses remembered as set, newest last; older ones are forgotten (and could be set again). */
const remembered = 1000;

/** Returns a receiver that sets commit statuses on the spec's repository. */
export function forgeReceiver(opts: ForgeReceiverOptions): NotificationReceiver {
  const { spec } = opts;
  const key = `${opts.policy}/${spec.name}`;
  const subject = `NotificationPolicy/${opts.policy}: receiver ${spec.name}`;
  const client = commitStatusClient({
    target: { kind: spec.type, apiUrl: spec.apiUrl, repository: spec.repository },
    token: () => readReceiverSecret(spec.token, subject, opts.secrets),
    timeouts: opts.timeouts ?? { connectMs: 5000, idleMs: 10_000, deadlineMs: 10_000 },
    ...(opts.rateLimits ? { rateLimits: opts.rateLimits } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const set = new Map<string, { last: string; count: number }>();
  return {
    key,
    type: spec.type,
    deliver: async (event) => {
      const status = forgeStatusOfEvent(event, spec.context);
      if (!status)
        return {
          type: 'failed',
          reason: `${subject}: event ${event.id} names no source commit`,
          terminal: true,
        };
      const at = `${status.sha} ${status.context}`;
      const was = set.get(at);
      const words = `${status.state} ${status.description}`;
      if (was?.last === words) return { type: 'delivered', status: 304 };
      if ((was?.count ?? 0) >= maxStatusesPerContext)
        return {
          type: 'failed',
          reason: `${subject}: ${status.context} on ${status.sha.slice(0, 12)}: ${maxStatusesPerContext} statuses set already, the forge's cap`,
          terminal: true,
        };
      const outcome = await post(client, status, { subject, now: opts.now ?? Date.now, event });
      if (outcome.type === 'delivered') remember(set, at, words);
      return outcome;
    },
  };
}

async function post(
  client: CommitStatusClient,
  status: NonNullable<ReturnType<typeof forgeStatusOfEvent>>,
  ctx: { subject: string; now: () => number; event: FleetEvent },
): Promise<DeliveryOutcome> {
  try {
    await client.post(status);
    return { type: 'delivered', status: 201 };
  } catch (error) {
    if (error instanceof NotificationSecretError) return { type: 'failed', reason: error.message };
    if (error instanceof RateLimitedError)
      return {
        type: 'failed',
        reason: `${ctx.subject}: ${error.message}`,
        retryAfterMs: Math.max(1000, error.retryAt - ctx.now()),
      };
    if (error instanceof ForgeStatusError)
      return {
        type: 'failed',
        reason: `${ctx.subject}: ${error.message}`,
        ...(error.code === 'ForgeRefused' ? { terminal: true } : {}),
      };
    // Not one of ours: its message is not known to be free of the token, its name is.
    return { type: 'failed', reason: `${ctx.subject}: the request failed (${(error as Error).name})` };
  }
}

function remember(set: Map<string, { last: string; count: number }>, at: string, words: string): void {
  const count = (set.get(at)?.count ?? 0) + 1;
  set.delete(at);
  set.set(at, { last: words, count });
  if (set.size > remembered) set.delete(set.keys().next().value!);
}
