// Which new events each receiver gets (docs/notifications.md#routes), and where each receiver is
// in each stream. Two positions per receiver and stream: `examined` (every event up to it was
// routed: handed to the receiver's lane or not for it) and the cursor (every event up to it is
// settled: delivered, given up or dropped), which the notifications branch records. The cursor
// catches up with `examined` as the lane settles what it was handed, event by event, in order.
import { formatLoadError } from '../../core/load/load-error.js';
import { coalesceEvents } from '../../core/notify/coalesce-events.js';
import { afterCommit, eventsAfter } from '../../core/notify/events-after.js';
import { fleetEvent, type FleetEvent } from '../../core/notify/fleet-event.js';
import type { NotifyCursor } from '../../core/notify/notify-cursor.js';
import { routeEvent } from '../../core/notify/route-events.js';
import type { Logger } from '../runtime/logger.js';
import type { FleetRead } from '../views/read-fleet-objects.js';
import type { HubPassResult } from './hub-pass-result.js';
import type { QueuedEvent } from './notify-lane.js';
import type { RoutingFacts } from './notify-policies.js';
import { bindingsStreamEvents, statusStreamEvents, type StreamEvents } from './notify-streams.js';

/** A branch whose first-parent history is a stream of events. */
export interface Stream {
  /** `bindings` or `status/<cluster>`: the cursor's key. */
  name: string;
  head: string;
  kind: 'bindings' | 'status';
  /** Where its commits are read when not in the hub's repository (a status repository's mirror). */
  read?: FleetRead;
}

// A commit no history has: a walk asked to find it goes back to the root (or the bound).
const rootOfHistory = '0'.repeat(40);

/** The routing state of the notifier's receivers. */
export class NotifyRouter {
  /** Receiver → stream → position up to which events were examined. */
  private readonly examined = new Map<string, Record<string, string>>();
  /** Receiver → stream → events handed to the lane and not settled yet. */
  private readonly pending = new Map<string, Map<string, number>>();

  constructor(
    private readonly opts: {
      cursor: () => NotifyCursor;
      log: Logger;
      maxCommits: number;
      /** Told when a cursor moved. */
      moved: () => void;
    },
  ) {}

  /** Returns, per receiver, the new events it gets, in order. */
  route(input: {
    read: FleetRead;
    streams: readonly Stream[];
    receivers: readonly string[];
    routing: RoutingFacts | undefined;
    sourceCommit: string;
    renderFailed: FleetEvent | undefined;
  }): Map<string, QueuedEvent[]> {
    const out = new Map<string, QueuedEvent[]>(input.receivers.map((k) => [k, []]));
    const cursor = this.opts.cursor();
    // A receiver met for the first time starts at the heads: a new policy is not sent the past.
    const fresh = input.receivers.filter((k) => !this.examined.has(k) && cursor[k] === undefined);
    for (const key of input.receivers)
      if (!this.examined.has(key)) this.examined.set(key, { ...(cursor[key]?.streams ?? {}) });
    for (const stream of input.streams) {
      for (const key of fresh) {
        this.examined.get(key)![stream.name] = afterCommit(stream.head);
        this.move(key, stream.name, afterCommit(stream.head));
      }
      const positions = input.receivers.map((k) => this.examined.get(k)![stream.name]);
      if (positions.every((p) => p === afterCommit(stream.head))) continue;
      const stopAt = new Set(positions.map((p) => (p === undefined ? rootOfHistory : p.split(':')[0]!)));
      const walk = {
        read: stream.read ?? input.read,
        head: stream.head,
        stopAt,
        maxCommits: this.opts.maxCommits,
      };
      const read: StreamEvents =
        stream.kind === 'bindings'
          ? bindingsStreamEvents(walk)
          : statusStreamEvents(walk, stream.name.slice('status/'.length), input.sourceCommit);
      for (const key of input.receivers) {
        const position = this.examined.get(key)![stream.name];
        const after = eventsAfter(read.events, read.commits, position);
        if (position !== undefined && !after.found)
          this.opts.log.warn(
            `notifications: ${key}: ${stream.name}: the last event it got is not in the last ${read.commits.length} commits: older events are not sent`,
          );
        this.hand(key, stream.name, afterCommit(stream.head), routed(after.events, key, input.routing), out);
      }
    }
    if (input.renderFailed)
      for (const key of input.receivers)
        if (this.examined.get(key)!['source'] !== input.renderFailed.id)
          this.hand(
            key,
            'source',
            input.renderFailed.id,
            routed([input.renderFailed], key, input.routing),
            out,
          );
    return out;
  }

  /** Moves the receiver's cursor past an event its lane settled. */
  settled(key: string, item: QueuedEvent): void {
    const pending = this.pending.get(key);
    const left = (pending?.get(item.stream) ?? 1) - 1;
    pending?.set(item.stream, left);
    this.move(
      key,
      item.stream,
      left > 0 ? item.event.id : (this.examined.get(key)?.[item.stream] ?? item.event.id),
    );
  }

  /** Forgets a receiver no policy names any more. */
  forget(key: string): void {
    this.examined.delete(key);
    this.pending.delete(key);
    const cursor = this.opts.cursor();
    if (cursor[key] !== undefined) {
      delete cursor[key];
      this.opts.moved();
    }
  }

  private hand(
    key: string,
    stream: string,
    upTo: string,
    events: FleetEvent[],
    out: Map<string, QueuedEvent[]>,
  ): void {
    this.examined.get(key)![stream] = upTo;
    const pending = this.pending.get(key) ?? new Map<string, number>();
    this.pending.set(key, pending);
    const items = coalesceEvents(events).map((event) => ({ stream, event }));
    pending.set(stream, (pending.get(stream) ?? 0) + items.length);
    out.get(key)!.push(...items);
    if ((pending.get(stream) ?? 0) === 0) this.move(key, stream, upTo);
  }

  private move(key: string, stream: string, position: string): void {
    const cursor = this.opts.cursor();
    const entry = (cursor[key] ??= { streams: {}, dropped: 0 });
    if (entry.streams[stream] === position) return;
    entry.streams[stream] = position;
    this.opts.moved();
  }
}

function routed(events: readonly FleetEvent[], key: string, routing: RoutingFacts | undefined): FleetEvent[] {
  if (!routing) return [];
  return events.filter((e) => routeEvent(e, routing.policies, routing.clusterLabels).includes(key));
}

/** Returns the RenderFailed event of a pass whose source does not load: its id is the source commit's. */
export function renderFailedEvent(result: HubPassResult & { type: 'loadFailed' }, nowMs: number): FleetEvent {
  const errors = result.errors.slice(0, 5).map(formatLoadError);
  const more = result.errors.length > 5 ? ` (and ${result.errors.length - 5} more)` : '';
  return fleetEvent('RenderFailed', {
    id: `${result.source.commit}:RenderFailed`,
    time: new Date(nowMs).toISOString(),
    sourceCommit: result.source.commit,
    message: `${result.source.commit.slice(0, 12)}: the fleet does not load, nothing was rendered: ${errors.join('; ')}${more}`,
  });
}
