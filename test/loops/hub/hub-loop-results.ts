// Pass results for the hub loop's tests: the loop only looks at their type and wake-at time.
import { noTimings, type HubPassResult } from '../../../src/loops/hub/hub-pass-result.js';

const timings = noTimings();
const source = { ref: 'refs/heads/main', commit: '0'.repeat(40), subject: '', message: '' };

/** A pass that rendered (and wrote nothing), with a failover wake-at time when given. */
export function renderedResult(wakeAt?: Date): HubPassResult {
  return {
    type: 'rendered',
    source,
    clusters: {},
    bindings: { type: 'unchanged', commit: null },
    diagnostics: [],
    written: { objects: 0, refs: 0, hashedTexts: 0 },
    timings,
    attempts: 1,
    ...(wakeAt ? { wakeAt } : {}),
  };
}

/** A pass that found nothing to do. */
export const upToDate: HubPassResult = {
  type: 'upToDate',
  source,
  bindingsCommit: 'b',
  timings,
  attempts: 1,
};

/** A pass that found nothing to do yet: a record of statuses waits until `wakeAt` (status-record-gap.ts). */
export function upToDateUntil(wakeAt: Date): HubPassResult {
  return { type: 'upToDate', source, bindingsCommit: 'b', timings, attempts: 1, wakeAt };
}
