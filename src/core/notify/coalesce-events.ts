// A flood of one kind of event (10,000 drift corrections in a minute, a hundred objects failing
// on one cluster) is told as a few events and one that counts the rest: per event type that
// coalesces, per cluster and per window (from the first event of the key in the window), the
// first `perWindow` events pass as they are and the others are folded into one event at the
// place of the last one folded, `coalesced` saying how many it stands for.
import { parseTime } from '../model/rfc3339.js';
import { fleetEvent, type FleetEvent, type FleetEventType } from './fleet-event.js';

/** How much of a kind of event passes: at most `perWindow` per cluster in `windowMs`. */
export interface CoalesceRule {
  perWindow: number;
  windowMs: number;
}

/** The default rules: drift corrections and apply failures coalesce, per cluster per minute. */
export const defaultCoalesceRules: Partial<Record<FleetEventType, CoalesceRule>> = {
  DriftReverted: { perWindow: 3, windowMs: 60_000 },
  ApplyFailed: { perWindow: 10, windowMs: 60_000 },
};

/** Returns the events with the floods folded, in order. */
export function coalesceEvents(
  events: readonly FleetEvent[],
  rules: Partial<Record<FleetEventType, CoalesceRule>> = defaultCoalesceRules,
): FleetEvent[] {
  const windows = new Map<string, Window>();
  const all: Window[] = [];
  const out: (FleetEvent | undefined)[] = [];
  for (const event of events) {
    const rule = rules[event.event];
    if (!rule) {
      out.push(event);
      continue;
    }
    const key = `${event.event} ${event.cluster ?? ''}`;
    const at = parseTime(event.time) ?? 0;
    let w = windows.get(key);
    if (!w || at - w.start >= rule.windowMs) {
      w = { start: at, passed: 0, folded: [] };
      windows.set(key, w);
      all.push(w);
    }
    if (w.passed < rule.perWindow) {
      w.passed++;
      out.push(event);
      continue;
    }
    // The window's summary moves to the place of its latest folded event.
    if (w.summaryAt !== undefined) out[w.summaryAt] = undefined;
    w.folded.push(event);
    w.summaryAt = out.length;
    out.push(undefined);
  }
  for (const w of all) if (w.summaryAt !== undefined) out[w.summaryAt] = summarize(w.folded);
  return out.filter((e): e is FleetEvent => e !== undefined);
}

interface Window {
  start: number;
  passed: number;
  folded: FleetEvent[];
  /** Where the window's summary goes in the output. */
  summaryAt?: number;
}

function summarize(folded: readonly FleetEvent[]): FleetEvent {
  const last = folded[folded.length - 1]!;
  const { object: _o, namespace: _n, ...rest } = last;
  const n = folded.reduce((sum, e) => sum + (e.coalesced ?? 1), 0);
  return fleetEvent(last.event, {
    ...rest,
    id: `${last.id}:coalesced`,
    coalesced: n,
    message: `${n} more ${last.event} events${last.cluster ? ` on ${last.cluster}` : ''} since ${folded[0]!.time}; the last: ${last.message}`,
  });
}
