// The receivers gitfleet delivers to itself, over HTTPS POST (docs/notifications.md#receivers):
// `webhook` (the contract's JSON, signed with the receiver's HMAC key when it has one), `slack`
// and `teams` (their incoming-webhook bodies, core/notify/chat-payloads.ts). The URL and the key
// are read at each delivery (read-receiver-secret.ts); a secret that cannot be read is a failed
// delivery that names the file or Secret, retried with back-off like any other.
import type { HttpReceiverSpec } from '../../core/model/notification-policy.js';
import { slackPayload, teamsPayload } from '../../core/notify/chat-payloads.js';
import type { FleetEvent } from '../../core/notify/fleet-event.js';
import type { DeliveryOutcome, NotificationReceiver } from '../../core/notify/notification-receiver.js';
import { webhookPayload } from '../../core/notify/webhook-payload.js';
import { hmacSignature, signatureHeader } from './hmac-signature.js';
import { postJson } from './post-json.js';
import { readReceiverSecret, type SecretReaders } from './read-receiver-secret.js';
import { NotificationSecretError } from './notification-secret-error.js';

export interface HttpReceiverOptions {
  policy: string;
  spec: HttpReceiverSpec;
  secrets: SecretReaders;
  /** The deadline of one delivery (default 10 s). */
  timeoutMs?: number;
}

/** Returns a webhook, Slack or Teams receiver. */
export function httpReceiver(opts: HttpReceiverOptions): NotificationReceiver {
  const key = `${opts.policy}/${opts.spec.name}`;
  const subject = `NotificationPolicy/${opts.policy}: receiver ${opts.spec.name}`;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return {
    key,
    type: opts.spec.type,
    async deliver(event: FleetEvent, signal: AbortSignal): Promise<DeliveryOutcome> {
      let url: string;
      const headers: Record<string, string> = {};
      const body = bodyOf(opts.spec.type, event);
      try {
        url = await readReceiverSecret(opts.spec.url, subject, opts.secrets);
        if (opts.spec.hmacKeyFile !== undefined) {
          const hmacKey = await readReceiverSecret(
            { type: 'file', file: opts.spec.hmacKeyFile },
            subject,
            opts.secrets,
          );
          headers[signatureHeader] = hmacSignature(hmacKey, body);
        }
      } catch (error) {
        if (error instanceof NotificationSecretError) return { type: 'failed', reason: error.message };
        throw error;
      }
      if (!/^https?:\/\//i.test(url))
        return { type: 'failed', reason: `${subject}: its URL is not http:// or https://`, terminal: true };
      headers['X-Gitfleet-Event'] = event.event;
      headers['X-Gitfleet-Id'] = event.id;
      return postJson({ url, body, headers, timeoutMs, signal });
    },
  };
}

function bodyOf(type: 'webhook' | 'slack' | 'teams', event: FleetEvent): string {
  if (type === 'webhook') return webhookPayload(event);
  return JSON.stringify(type === 'slack' ? slackPayload(event) : teamsPayload(event));
}
