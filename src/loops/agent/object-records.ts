// The per-object part of the status report: each object's apply result, its health and the
// status fields Karmada reflects, from the live object the pass saw last.
import { healthOf, type HealthContext } from '../../core/health/health-of.js';
import type { ObjectStatusRecord } from '../../core/status/status-branch.js';
import { reflectStatus } from '../../core/status/reflect-status.js';
import { refKey, refOfKey } from '../../core/model/object-ref.js';
import type { ObjectResult } from './object-result.js';
import type { InterpretRequest, ResourceInterpreter } from '../../core/model/resource-interpreter.js';
import type { ObservedRecord } from './agent-memory.js';

/** What the agent remembers of its applies, by refKey (agent-memory.ts `specApplied`). */
export type SpecApplied = ReadonlyMap<string, { generation: number; atMs: number }>;

/** Returns the status record of every object the pass handled, and one per file that did not parse. */
export function objectRecords(
  results: readonly ObjectResult[],
  unparsed: readonly { path: string; key: string | undefined; message: string }[],
  interpreter?: ResourceInterpreter,
  specApplied: SpecApplied = new Map(),
): ObjectStatusRecord[] {
  const records = results.map((result) => recordOf(result, interpreter, specApplied));
  for (const file of unparsed) {
    const ref = refOfKey(file.key);
    if (ref)
      records.push({ ref, applied: false, message: `${file.path}: ${file.message}`, health: 'Unknown' });
  }
  return records;
}

/** Runs the InterpretHealth and InterpretStatus scripts objectRecords will call ahead, off the event loop. */
export async function prepareObjectRecords(
  results: readonly ObjectResult[],
  interpreter: ResourceInterpreter | undefined,
): Promise<void> {
  if (interpreter?.prepare === undefined) return;
  const requests: InterpretRequest[] = [];
  for (const result of results) {
    if (result.record || result.action === 'refused' || !result.live) continue;
    requests.push({ operation: 'InterpretHealth', object: result.live });
    requests.push({ operation: 'InterpretStatus', object: result.live });
  }
  await interpreter.prepare(requests);
}

/**
 * Returns, by refKey, what the records say of the objects in place (applied, no message) and
 * the resourceVersion and interpreter they were judged on: the next pass's `observed`.
 * `records` are objectRecords(results, ...), in the same order.
 */
export function observedRecords(
  results: readonly ObjectResult[],
  records: readonly ObjectStatusRecord[],
  interpreter: ResourceInterpreter | undefined,
): Map<string, ObservedRecord> {
  const observed = new Map<string, ObservedRecord>();
  results.forEach((result, i) => {
    const rv = result.live?.metadata.resourceVersion;
    const record = records[i];
    if (!result.applied || result.action === 'refused' || typeof rv !== 'string' || !record) return;
    if (record.message !== undefined) return;
    observed.set(refKey(result.ref), {
      resourceVersion: rv,
      interpreter,
      record: Object.isFrozen(record) ? record : Object.freeze(record),
    });
  });
  return observed;
}

function recordOf(
  result: ObjectResult,
  interpreter: ResourceInterpreter | undefined,
  specApplied: SpecApplied,
): Readonly<ObjectStatusRecord> {
  if (result.record) return result.record;
  // A foreign object (refused) is not ours to judge; anything else is judged on what is live.
  const live = result.action === 'refused' ? undefined : result.live;
  const health = live
    ? healthOf(live, interpreter, contextOf(specApplied.get(refKey(result.ref))))
    : { status: 'Unknown' as const, message: 'not found in the cluster' };
  const status = live ? reflectStatus(live, interpreter) : undefined;
  return {
    ref: result.ref,
    applied: result.applied,
    ...(result.message !== undefined ? { message: result.message } : {}),
    health: health.status,
    ...(health.message !== undefined ? { healthMessage: health.message } : {}),
    ...(status !== undefined ? { status } : {}),
  };
}

function contextOf(applied: { generation: number; atMs: number } | undefined): HealthContext {
  return applied ? { specApplied: applied } : {};
}
