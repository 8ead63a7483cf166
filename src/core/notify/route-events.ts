// Which receivers get an event (docs/notifications.md#routes): every route of every policy whose
// filters all take the event sends it to its receivers; a receiver named by several routes gets
// the event once.
//
// | filter              | takes an event when                                                   |
// |---------------------|-----------------------------------------------------------------------|
// | events              | it lists the event's type, or `*`                                     |
// | severity            | the event is at least this severe                                     |
// | clusters.selector   | the event names a cluster whose registration's labels match (an event of no cluster, or of a cluster no longer registered, does not match) |
// | namespaces          | empty, or the event's object is in one of them (an event of no namespace does not match a non-empty list) |
import { matchLabelSelector } from '../select/match-label-selector.js';
import {
  eventSeverities,
  type NotificationPolicy,
  type NotificationRoute,
} from '../model/notification-policy.js';
import type { FleetEvent } from './fleet-event.js';

/** Returns the names of the receivers (as `policy/receiver`) that get the event, sorted. */
export function routeEvent(
  event: FleetEvent,
  policies: readonly NotificationPolicy[],
  clusterLabels: ReadonlyMap<string, Readonly<Record<string, string>>>,
): string[] {
  const out = new Set<string>();
  for (const policy of policies)
    for (const route of policy.routes)
      if (routeTakes(route, event, clusterLabels))
        for (const r of route.receivers) out.add(`${policy.name}/${r}`);
  return [...out].sort();
}

/** Returns whether one route takes the event. */
export function routeTakes(
  route: NotificationRoute,
  event: FleetEvent,
  clusterLabels: ReadonlyMap<string, Readonly<Record<string, string>>>,
): boolean {
  if (!route.events.includes('*') && !route.events.includes(event.event)) return false;
  if (eventSeverities.indexOf(event.severity) < eventSeverities.indexOf(route.severity)) return false;
  if (route.clusters) {
    const labels = event.cluster === undefined ? undefined : clusterLabels.get(event.cluster);
    if (labels === undefined || !matchLabelSelector(route.clusters, labels)) return false;
  }
  if (
    route.namespaces.length > 0 &&
    (event.namespace === undefined || !route.namespaces.includes(event.namespace))
  )
    return false;
  return true;
}
