// The generic webhook's body (the contract of issue 34, docs/notifications.md#webhook): one JSON
// object per event, `{"event", "severity", "time", "sourceCommit", "cluster"?, "object"?,
// "message", "id"}`, plus `coalesced` on an event that stands for more. The receiver checks the
// `X-Gitfleet-Signature: sha256=<hex HMAC-SHA256 of these bytes>` header and de-duplicates on `id`.
import type { FleetEvent } from './fleet-event.js';

/** Returns the webhook body of an event, as the bytes' text (keys in the contract's order). */
export function webhookPayload(event: FleetEvent): string {
  return JSON.stringify({
    event: event.event,
    severity: event.severity,
    time: event.time,
    sourceCommit: event.sourceCommit,
    ...(event.cluster !== undefined ? { cluster: event.cluster } : {}),
    ...(event.object !== undefined ? { object: event.object } : {}),
    message: event.message,
    id: event.id,
    ...(event.coalesced !== undefined ? { coalesced: event.coalesced } : {}),
  });
}
