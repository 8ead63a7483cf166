// The per-object part of the status report: each object's apply result, its health and the
// status fields Karmada reflects, from the live object the pass saw last.
import { healthOf } from '../../core/health/health-of.js';
import type { ObjectStatusRecord } from '../../core/status/status-branch.js';
import { reflectStatus } from '../../core/status/reflect-status.js';
import { refOfKey } from '../../core/model/object-ref.js';
import type { ObjectResult } from './object-result.js';
import type { ResourceInterpreter } from '../../core/model/resource-interpreter.js';

/** Returns the status record of every object the pass handled, and one per file that did not parse. */
export function objectRecords(
  results: readonly ObjectResult[],
  unparsed: readonly { path: string; key: string | undefined; message: string }[],
  interpreter?: ResourceInterpreter,
): ObjectStatusRecord[] {
  const records = results.map((result) => recordOf(result, interpreter));
  for (const file of unparsed) {
    const ref = refOfKey(file.key);
    if (ref)
      records.push({ ref, applied: false, message: `${file.path}: ${file.message}`, health: 'Unknown' });
  }
  return records;
}

function recordOf(result: ObjectResult, interpreter: ResourceInterpreter | undefined): ObjectStatusRecord {
  // A foreign object (refused) is not ours to judge; anything else is judged on what is live.
  const live = result.action === 'refused' ? undefined : result.live;
  const health = live
    ? healthOf(live, interpreter)
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
