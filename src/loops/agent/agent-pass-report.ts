// An agent pass's result as the metrics count it (runtime/metrics.ts). Each object's action
// falls in one of the counted outcomes:
//
//   action                                            counted as
//   created, updated, driftCorrected, takenOver,      applied
//   recreated
//   unchanged                                         unchanged
//   failed, refused                                   failed
//   driftPaused                                       (neither: a fight backed off)
//
// and prune's deleted and orphaned objects as pruned (what `agent` prints as "pruned N").
// driftCorrected also counts as a drift correction.
import type { AgentPassReport } from '../runtime/metrics.js';
import type { ObjectAction } from './object-result.js';
import type { AgentPassResult } from './run-agent-pass.js';

const outcomeOf: Record<ObjectAction, 'applied' | 'unchanged' | 'failed' | undefined> = {
  created: 'applied',
  updated: 'applied',
  driftCorrected: 'applied',
  takenOver: 'applied',
  recreated: 'applied',
  unchanged: 'unchanged',
  failed: 'failed',
  refused: 'failed',
  driftPaused: undefined,
};

/** Returns the report of a pass that returned `result` at `nowMs`. */
export function agentPassReport(result: AgentPassResult, nowMs: number): AgentPassReport {
  const objects = { applied: 0, unchanged: 0, failed: 0, pruned: 0 };
  for (const o of result.objects) {
    const outcome = outcomeOf[o.action];
    if (outcome) objects[outcome] += 1;
  }
  objects.pruned = (result.prune?.deleted.length ?? 0) + (result.prune?.orphaned.length ?? 0);
  return {
    result: resultOf(result),
    seconds: result.totalMs / 1000,
    succeeded: result.type !== 'clusterUnreachable' && result.gitReachable && result.fullyApplied,
    at: nowMs / 1000,
    objects,
    driftCorrections: result.objects.filter((o) => o.action === 'driftCorrected').length,
    fightsBackedOff: result.objects.filter((o) => o.action === 'driftPaused').length,
  };
}

/** Returns the report of a pass that threw (the cluster or the inventory could not be read). */
export function failedAgentPassReport(nowMs: number): AgentPassReport {
  return {
    result: 'failed',
    succeeded: false,
    at: nowMs / 1000,
    objects: { applied: 0, unchanged: 0, failed: 0, pruned: 0 },
    driftCorrections: 0,
    fightsBackedOff: 0,
  };
}

function resultOf(result: AgentPassResult): string {
  if (result.type !== 'applied') return result.type;
  if (!result.gitReachable) return 'gitUnreachable';
  return result.fullyApplied ? 'applied' : 'partlyApplied';
}
