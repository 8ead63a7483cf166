// A NotificationPolicy is read by the hub's notifier (loops/hub/notify-worker.ts); it is never
// propagated. It is cluster-scoped: a namespace written on it is ignored, as for a Tenant.
import type { NotificationPolicy } from '../model/notification-policy.js';
import type { ObjectRef } from '../model/object-ref.js';
import type { SourceLocation } from '../model/source-location.js';
import type { Issues } from './field-reader.js';
import { parseNotificationPolicy } from './parse-notification-policy.js';
import type { Envelope } from './read-envelope.js';

/** Returns the policy of a NotificationPolicy document and its identity, or its problems. */
export function collectNotificationPolicy(
  source: SourceLocation,
  e: Envelope,
): { ok: true; ref: ObjectRef; policy: NotificationPolicy } | { ok: false; issues: Issues } {
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace: '', name: e.name };
  const parsed = parseNotificationPolicy({ object: e.object, name: e.name, source });
  return parsed.ok ? { ok: true, ref, policy: parsed.policy } : parsed;
}
