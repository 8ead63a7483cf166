// Which events of a stream a receiver has not had: those after its position, the id of the last
// event it got (`<commit>:<n>`; `<commit>:*` is "everything of that commit"). The stream's events
// come from its commits read oldest first (loops/hub/notify-streams.ts); a position whose commit
// is not among them (older than the bound, or a history that was replaced) is not found, and
// every event read is after it.
import { eventPosition } from './notify-cursor.js';
import type { FleetEvent } from './fleet-event.js';

/** Returns the events after the position, and whether the position's commit was among those read. */
export function eventsAfter(
  events: readonly FleetEvent[],
  commits: readonly string[],
  position: string | undefined,
): { events: FleetEvent[]; found: boolean } {
  if (position === undefined) return { events: [...events], found: false };
  const order = new Map(commits.map((c, i) => [c, i]));
  const at = eventPosition(position);
  const index = order.get(at.commit);
  if (index === undefined) return { events: [...events], found: false };
  return {
    events: events.filter((e) => {
      const p = eventPosition(e.id);
      const i = order.get(p.commit) ?? -1;
      return i > index || (i === index && p.n > at.n);
    }),
    found: true,
  };
}

/** The position after every event of a commit. */
export function afterCommit(commit: string): string {
  return `${commit}:*`;
}
