// A hub pass's result as the metrics count it (runtime/metrics.ts). A pass that found the
// source rendered already succeeded as much as one that rendered it; a source that does not
// load did not, nor did one whose source head was refused, even when it rendered the last
// verified commit again (the branches keep their last good state, the last-success time stands).
import type { HubPassReport } from '../runtime/metrics.js';
import type { HubPassResult } from './hub-pass-result.js';

/** Returns the report of a pass that returned `result` at `nowMs`. */
export function hubPassReport(result: HubPassResult, nowMs: number): HubPassReport {
  const rendered = result.type === 'rendered' ? result : undefined;
  return {
    result: result.type,
    seconds: result.timings.totalMs / 1000,
    succeeded: result.type !== 'loadFailed' && result.refused === undefined,
    ...(result.refused ? { sourceRefused: result.refused.problem } : {}),
    at: nowMs / 1000,
    rolloutDecisions: rendered?.rolloutDecisions?.map((d) => d.type) ?? [],
    evictions: (rendered?.decisions ?? []).filter((d) => d.type === 'Evicted').map((d) => d.reason),
  };
}

/** Returns the report of a pass that threw. */
export function failedHubPassReport(nowMs: number): HubPassReport {
  return { result: 'failed', succeeded: false, at: nowMs / 1000, rolloutDecisions: [], evictions: [] };
}
