// What the hub sent, as it records it in Git (docs/notifications.md#what-was-sent): one file,
// `cursor.yaml`, on the notifications branch (`<prefix>notifications`), holding per receiver
// (`<policy>/<receiver>`) the id of the last event delivered (or dropped) in each stream of
// events: `bindings` (the bindings branch), `status/<cluster>` (that cluster's status branch) and
// `source` (source commits that did not load). Ids are `<commit>:<n>` (source: `<commit>:RenderFailed`),
// so a hub that starts, restarts or takes over resumes each stream after that event.
//
//   apiVersion: gitfleet.io/v1alpha1
//   kind: NotificationCursor
//   receivers:
//     ops/chat:
//       dropped: 0
//       streams: {bindings: 1a2b…:3, source: 9f8e…:RenderFailed, status/member1: 4c5d…:0}
import yaml from 'js-yaml';
import { emitYaml } from '../format/emit-yaml.js';
import { isMap } from '../model/kube-object.js';

/** Where one receiver is in each stream. */
export interface ReceiverCursor {
  /** Stream → id of the last event delivered or dropped. */
  streams: Record<string, string>;
  /** How many events were dropped for this receiver so far (its backlog was full). */
  dropped: number;
}

/** Receiver key (`<policy>/<receiver>`) → its cursor. */
export type NotifyCursor = Record<string, ReceiverCursor>;

/** The file of the cursor on the notifications branch. */
export const cursorFile = 'cursor.yaml';

/** Returns the cursor's canonical text. */
export function notifyCursorText(cursor: NotifyCursor): string {
  const receivers: Record<string, unknown> = {};
  for (const key of Object.keys(cursor).sort()) {
    const c = cursor[key]!;
    const streams: Record<string, string> = {};
    for (const s of Object.keys(c.streams).sort()) streams[s] = c.streams[s]!;
    receivers[key] = { dropped: c.dropped, streams };
  }
  return emitYaml({ apiVersion: 'gitfleet.io/v1alpha1', kind: 'NotificationCursor', receivers });
}

/** Returns the cursor of a text; a text that does not parse is no cursor (every receiver starts at the heads). */
export function parseNotifyCursor(text: string): NotifyCursor {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch {
    return {};
  }
  if (!isMap(doc) || doc['kind'] !== 'NotificationCursor' || !isMap(doc['receivers'])) return {};
  const out: NotifyCursor = {};
  for (const [key, value] of Object.entries(doc['receivers'])) {
    if (!isMap(value) || !isMap(value['streams'])) continue;
    const streams: Record<string, string> = {};
    for (const [s, id] of Object.entries(value['streams'])) if (typeof id === 'string') streams[s] = id;
    const dropped = typeof value['dropped'] === 'number' && value['dropped'] >= 0 ? value['dropped'] : 0;
    out[key] = { streams, dropped };
  }
  return out;
}

/** Returns the commit and index of an event id (`<commit>:<n>`, `<commit>:<n>:coalesced`, `<commit>:RenderFailed`). */
export function eventPosition(id: string): { commit: string; n: number } {
  const [commit = '', n = ''] = id.split(':');
  const index = Number(n);
  return { commit, n: Number.isSafeInteger(index) ? index : Number.MAX_SAFE_INTEGER };
}
