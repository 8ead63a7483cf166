// The event types of notifications (docs/notifications.md#events) and their severities: in the
// model, since a NotificationPolicy names them (core/load) and the notifier makes them (core/notify).
import type { EventSeverity } from './notification-policy.js';

/** The severity of each event type; the keys are every event type there is. */
export const eventSeverity = {
  RenderFailed: 'error',
  SourceRefused: 'error',
  DeletionRefused: 'error',
  RolloutStarted: 'info',
  RolloutStepPassed: 'info',
  RolloutWaitingApproval: 'warning',
  RolloutHalted: 'error',
  RolloutRolledBack: 'error',
  RolloutComplete: 'info',
  ClusterNotReady: 'error',
  ClusterReady: 'info',
  ClusterTainted: 'warning',
  ClusterUntainted: 'info',
  ObjectEvicted: 'warning',
  ApplyFailed: 'error',
  DriftReverted: 'warning',
  DriftPaused: 'warning',
} as const satisfies Record<string, EventSeverity>;

/** One event type (a key of eventSeverity). */
export type FleetEventType = keyof typeof eventSeverity;

/** Every event type, in the order the docs list them. */
export const fleetEventTypes = Object.keys(eventSeverity) as FleetEventType[];

/** Returns whether a string names an event type. */
export function isFleetEventType(name: string): name is FleetEventType {
  return Object.prototype.hasOwnProperty.call(eventSeverity, name);
}
