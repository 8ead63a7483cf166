// The render memo's `detections` and `schedules` entries (incremental-render.ts): a template's
// detection and a claim's schedule are last time's when their inputs are the same objects (and,
// for a schedule, the previous placement the same by value). With `ahead`, each is also worked
// out for what the next render will ask: its own claim, or its own placement, as the previous one.
import type { Detection } from '../detect/detect-claims.js';
import type { DetectionInput } from '../detect/detect-templates.js';
import { policyLabel, type PolicyRef } from '../model/propagation-policy.js';
import type { ScheduledClaim, ScheduleInput } from '../schedule/schedule-claims.js';
import type { DetectionMemo, ScheduleMemo } from './render-memo.js';
import { samePrevious, sameSchedule } from './same-inputs.js';

/** Where an entry's results are kept: last time's (none when invalidated), and this render's. */
export interface EntryMemo<T> {
  kept: ReadonlyMap<string, T> | undefined;
  into: Map<string, T>;
  /** Work out what the next render will ask too (RenderOptions.ahead). */
  ahead: boolean;
}

/** Returns the template's detection: last time's for the same template and previous claim, else computed. */
export function reuseDetection(
  input: DetectionInput,
  compute: (input: DetectionInput) => Detection,
  memo: EntryMemo<DetectionMemo>,
): Detection {
  const { template } = input;
  const previousPolicy = labelOf(input.previous);
  const kept = memo.kept?.get(template.key);
  let entry =
    kept?.template === template && kept.results.some((r) => r.previousPolicy === previousPolicy)
      ? kept
      : undefined;
  if (!entry) {
    const detection = compute(input);
    entry = { template, results: [{ previousPolicy, detection }] };
    const own = detection.type === 'claimed' ? detection.claim.policy : undefined;
    // The next render reads the template's own claim back as the previous one: working
    // that detection out now (it costs microseconds) lets the next render find it.
    if (memo.ahead && labelOf(own) !== previousPolicy) {
      entry.results.push({
        previousPolicy: labelOf(own),
        detection: compute({ template, previous: own }),
      });
    }
  }
  memo.into.set(template.key, entry);
  return entry.results.find((r) => r.previousPolicy === previousPolicy)!.detection;
}

/**
 * Returns the claim's schedule: last time's for the same template, policy, fleet APIs and
 * previous placement (by value), else computed.
 */
export function reuseSchedule(
  input: ScheduleInput,
  compute: (input: ScheduleInput) => ScheduledClaim,
  memo: EntryMemo<ScheduleMemo>,
): ScheduledClaim {
  const { claim, previous } = input;
  const kept = memo.kept?.get(claim.template.key);
  const known =
    kept?.template === claim.template && kept.policy === claim.policy && (kept.apis ?? '') === input.apis
      ? kept.results
      : [];
  let found = known.find((r) => samePrevious(r.previous, previous));
  let entry = found ? kept! : undefined;
  if (!found || !entry) {
    found = { previous, scheduled: compute(input) };
    entry = { template: claim.template, policy: claim.policy, apis: input.apis, results: [found] };
    const own = found.scheduled.placement;
    if (memo.ahead && !samePrevious(own, previous)) {
      // Scheduled with its own placement, a claim usually gets the same binding (then the
      // same object, so later stages reuse their work), but not always: e.g. a NotReady
      // cluster passes the filters only while it is in the previous placement.
      const again = compute({ ...input, previous: own });
      const scheduled = sameSchedule(again, found.scheduled) ? found.scheduled : again;
      entry.results.push({ previous: own, scheduled });
    }
  }
  memo.into.set(claim.template.key, entry);
  return found.scheduled;
}

function labelOf(policy: PolicyRef | undefined): string {
  return policy ? policyLabel(policy) : '';
}
