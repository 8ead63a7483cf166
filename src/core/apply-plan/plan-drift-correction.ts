// Bounded drift correction (test/faults/README.md: drift, and controllers fighting; Argo CD's
// self-heal counter). When something keeps changing an object back, re-applying it on every
// change is an apply storm that never converges. So: at most `limit` drift corrections of one
// object within `windowMs`; past that, the agent stops correcting it for `backoffMs` after the
// last correction and reports the fight. A new manifest is always applied: only corrections of
// the same manifest are counted.

export interface FightSettings {
  /** Corrections allowed within the window. */
  limit: number;
  windowMs: number;
  /** How long corrections pause once the limit is reached, counted from the last one. */
  backoffMs: number;
}

/** Returns the default: 5 corrections per 10 minutes, then a 10-minute pause. */
export function defaultFightSettings(): FightSettings {
  return { limit: 5, windowMs: 10 * 60_000, backoffMs: 10 * 60_000 };
}

export type DriftCorrectionDecision =
  { type: 'correct' } | { type: 'backOff'; untilMs: number; message: string };

/** Returns whether to correct an object's drift now, given the times of its earlier corrections. */
export function planDriftCorrection(input: {
  history: readonly number[];
  nowMs: number;
  settings: FightSettings;
}): DriftCorrectionDecision {
  const { limit, windowMs, backoffMs } = input.settings;
  const recent = input.history.filter((t) => t > input.nowMs - windowMs);
  if (recent.length < limit) return { type: 'correct' };
  const untilMs = Math.max(...recent) + backoffMs;
  if (input.nowMs >= untilMs) return { type: 'correct' };
  const minutes = Math.round(windowMs / 60_000);
  return {
    type: 'backOff',
    untilMs,
    message: `drift correction paused: re-applied ${recent.length} times within ${minutes} minutes while something else keeps changing it`,
  };
}

/** Returns the history with a correction at `nowMs` added and entries older than the window dropped. */
export function recordCorrection(
  history: readonly number[],
  nowMs: number,
  settings: FightSettings,
): number[] {
  return [...history.filter((t) => t > nowMs - settings.windowMs), nowMs];
}
