// The messages between the parent and a Lua worker thread (lua-worker.ts). A result's empty
// tables are a symbol (EMPTY_TABLE), which cannot cross threads: they travel as the paths
// where they were, and are put back on arrival.
import type { LuaBudget, LuaCall, LuaCallOutcome } from './lua-runtime.js';
import { EMPTY_TABLE, type LuaValue } from './lua-values.js';

/** What the worker is asked to do: a call, or a syntax check. */
export type LuaJob =
  { type: 'call'; call: LuaCall } | { type: 'syntax'; script: string; chunkName: string; budget?: LuaBudget };

/** What the worker answers: that it started the job, then its outcome. */
export type LuaReply =
  | { type: 'started' }
  | { type: 'call'; outcome: PackedOutcome }
  | { type: 'syntax'; message: string | undefined };

/** A call's outcome with its empty tables as paths. */
export type PackedOutcome =
  { ok: true; values: unknown[]; empties: (string | number)[][] } | Extract<LuaCallOutcome, { ok: false }>;

/** The job's state in the shared flag the parent waits on while it calls synchronously. */
export const JOB_QUEUED = 0;
export const JOB_STARTED = 1;
export const JOB_DONE = 2;

/** Returns the outcome ready to post: every EMPTY_TABLE replaced by null and its path listed. */
export function packOutcome(outcome: LuaCallOutcome): PackedOutcome {
  if (!outcome.ok) return outcome;
  const empties: (string | number)[][] = [];
  const values = outcome.values.map((v, i) => pack(v, [i], empties));
  return { ok: true, values, empties };
}

/** Returns the outcome as the worker's runtime gave it. */
export function unpackOutcome(packed: PackedOutcome): LuaCallOutcome {
  if (!packed.ok) return packed;
  const values = packed.values as LuaValue[];
  for (const path of packed.empties) {
    if (path.length === 1) {
      values[path[0] as number] = EMPTY_TABLE;
      continue;
    }
    let at = values[path[0] as number] as unknown as Record<string | number, unknown>;
    for (const key of path.slice(1, -1)) at = at[key] as Record<string | number, unknown>;
    at[path[path.length - 1]!] = EMPTY_TABLE;
  }
  return { ok: true, values };
}

function pack(value: LuaValue, path: (string | number)[], empties: (string | number)[][]): unknown {
  if (value === EMPTY_TABLE) {
    empties.push(path);
    return null;
  }
  if (Array.isArray(value)) return value.map((v, i) => pack(v, [...path, i], empties));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = pack(v, [...path, k], empties);
    return out;
  }
  return value;
}
