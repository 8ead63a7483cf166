// The one seam between the notifier (loops/hub/notify-worker.ts) and whatever delivers: the
// webhook, Slack and Teams receivers of adapters/notify, and the forges' commit-status clients
// (github, gitlab, gitea), which plug in here as receivers of the same policy.
import type { ReceiverType } from '../model/notification-policy.js';
import type { FleetEvent } from './fleet-event.js';

/** What one delivery attempt gave. */
export type DeliveryOutcome =
  | { type: 'delivered'; status: number }
  /**
   * Not delivered: `reason` says why in words that hold no secret (no URL, no token, no key);
   * `retryAfterMs` when the receiver asked for a delay; `terminal` when trying again cannot help
   * (a redirect, a 4xx other than 408/429): the event is given up, counted, and the next one sent.
   */
  | { type: 'failed'; reason: string; retryAfterMs?: number; terminal?: boolean };

/** A receiver of a NotificationPolicy, ready to deliver. */
export interface NotificationReceiver {
  /** `<policy>/<receiver>`: how the cursor, the logs and the metrics name it. */
  readonly key: string;
  readonly type: ReceiverType;
  /** Sends one event; never throws, never takes longer than its own timeout; `signal` stops it early. */
  deliver(event: FleetEvent, signal: AbortSignal): Promise<DeliveryOutcome>;
}
