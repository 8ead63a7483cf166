// The events the hub tells receivers about (docs/notifications.md#events). Every event is derived
// from a commit the hub or an agent wrote (bindings-commit-events.ts, status-commit-events.ts) or
// from a source commit that does not load, and its `id` is a function of that commit: a hub that
// restarts or fails over derives the same events with the same ids, and receivers de-duplicate on it.
import type { EventSeverity } from '../model/notification-policy.js';
import { eventSeverity, type FleetEventType } from '../model/fleet-event-type.js';

export {
  eventSeverity,
  fleetEventTypes,
  isFleetEventType,
  type FleetEventType,
} from '../model/fleet-event-type.js';

/** One event, as a webhook receives it (the JSON of the contract). */
export interface FleetEvent {
  /** Stable across restarts and hubs: `<commit>:<type>[:<n>]` of the commit it comes from. */
  id: string;
  event: FleetEventType;
  severity: EventSeverity;
  /** RFC 3339: the committer time of the commit it comes from. */
  time: string;
  /** The source commit the hub had rendered (or tried to) when it happened. */
  sourceCommit: string;
  cluster?: string;
  /** `Kind/namespace/name` (or `Kind/name`) of the object it is about. */
  object?: string;
  /** The object's namespace, for routes that filter on namespaces. */
  namespace?: string;
  /** The strategy (`namespace/name` or `name`) a rollout event is about; not in the webhook's body. */
  strategy?: string;
  /** One line a person reads, subject first. */
  message: string;
  /** Set on an event that stands for more of its kind (coalesce-events.ts): how many it replaced. */
  coalesced?: number;
}

/** Returns an event of `type`, its severity filled in from the table. */
export function fleetEvent(type: FleetEventType, fields: Omit<FleetEvent, 'event' | 'severity'>): FleetEvent {
  return { ...fields, event: type, severity: eventSeverity[type] };
}
