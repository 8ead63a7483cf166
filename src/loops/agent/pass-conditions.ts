// The agent's own conditions in its report. Their text depends only on the state reached, never
// on what this pass happened to do (created, corrected, pruned now), so a pass that reaches the
// same state writes the same report and no status commit.
import type { StatusCondition } from '../../core/status/parse-conditions.js';
import type { ObjectResult } from './object-result.js';
import { waitingHolds } from '../../core/apply-plan/plan-prune.js';
import type { PruneOutcome } from './prune-objects.js';

export interface ConditionsInput {
  objects: readonly ObjectResult[];
  unparsed: number;
  prune: PruneOutcome | undefined;
  /** The summary of the last Git outage, once Git is reachable again. */
  lastOutage: string | undefined;
  /** Set when the stored inventory did not read (nothing was pruned): what was done about it. */
  inventoryProblem?: string;
}

/** Returns the Applied, Pruned, DriftCorrected and GitReachable conditions of a pass. */
export function passConditions(input: ConditionsInput): StatusCondition[] {
  const conditions: StatusCondition[] = [appliedCondition(input)];
  if (input.prune) conditions.push(prunedCondition(input.prune));
  if (input.inventoryProblem) {
    conditions.push({
      type: 'Pruned',
      status: 'False',
      reason: 'InventoryUnreadable',
      message: input.inventoryProblem,
    });
  }
  const paused = input.objects.filter((o) => o.action === 'driftPaused');
  if (paused.length > 0) {
    conditions.push({
      type: 'DriftCorrected',
      status: 'False',
      reason: 'BackedOff',
      message: `drift correction paused on ${paused.length} object(s) another writer keeps changing: ${paused.map((o) => o.path).join(', ')}`,
    });
  }
  if (input.lastOutage)
    conditions.push({ type: 'GitReachable', status: 'True', reason: 'Recovered', message: input.lastOutage });
  return conditions;
}

function appliedCondition(input: ConditionsInput): StatusCondition {
  const total = input.objects.length + input.unparsed;
  const failed = input.objects.filter((o) => !o.applied).length + input.unparsed;
  if (failed === 0)
    return {
      type: 'Applied',
      status: 'True',
      reason: 'FullyApplied',
      message: `all ${total} objects applied`,
    };
  return {
    type: 'Applied',
    status: 'False',
    reason: 'ApplyFailed',
    message: `${failed} of ${total} objects not applied`,
  };
}

function prunedCondition(prune: PruneOutcome): StatusCondition {
  if (prune.plan.guardRefusal)
    return { type: 'Pruned', status: 'False', reason: 'MassDeletionGuard', message: prune.plan.guardRefusal };
  if (prune.failed.length > 0) {
    return {
      type: 'Pruned',
      status: 'False',
      reason: 'PruneFailed',
      message: prune.failed.map((f) => f.message).join('; '),
    };
  }
  const waiting = prune.plan.held.filter((h) => h.reason === 'WaitingForHub');
  if (waiting.length > 0) {
    // One message for all of them: why, and since when (the report the hub must read).
    return {
      type: 'Pruned',
      status: 'False',
      reason: 'WaitingForHub',
      message: `${waiting.length} deletion(s) held: ${waiting[0]!.message}`,
    };
  }
  const blocking = prune.plan.held.filter((h) => !waitingHolds.has(h.reason));
  if (blocking.length > 0) {
    return {
      type: 'Pruned',
      status: 'False',
      reason: 'PruneHeld',
      message: blocking.map((h) => h.message).join('; '),
    };
  }
  // Waiting on the cluster: deletions held by finalizers, Namespaces and CRDs kept for what they hold.
  const kept = prune.plan.held.filter(
    (h) => h.reason === 'NamespaceNotEmpty' || h.reason === 'CustomResourcesExist',
  );
  if (prune.terminating.length > 0 || kept.length > 0) {
    return {
      type: 'Pruned',
      status: 'False',
      reason: prune.terminating.length > 0 ? 'Terminating' : kept[0]!.reason,
      message: [...prune.terminating, ...kept].map((h) => h.message).join('; '),
    };
  }
  return {
    type: 'Pruned',
    status: 'True',
    reason: 'Complete',
    message: 'every object that left the branch is gone, orphaned or left to its owner',
  };
}

/**
 * Returns whether the pass ran the branch's commit in full: every object applied and nothing
 * left to prune but what waits on the cluster (an object held by its finalizers, a Namespace
 * kept for what others put in it), which the Pruned condition reports.
 */
export function isFullyApplied(input: ConditionsInput): boolean {
  const pruneDone =
    input.prune !== undefined &&
    input.prune.failed.length === 0 &&
    input.prune.plan.held.every((h) => waitingHolds.has(h.reason));
  return pruneDone && input.unparsed === 0 && input.objects.every((o) => o.applied);
}

/** Returns `Kind/namespace/name: message` of every failure of a pass, for the commit message. */
export function failureLines(
  input: ConditionsInput,
  unparsed: readonly { path: string; message: string }[],
): string[] {
  const lines = input.objects
    .filter((o) => !o.applied)
    .map((o) => `${o.path.replace(/\.yaml$/, '')}: ${o.message ?? o.action}`);
  for (const u of unparsed) lines.push(`${u.path.replace(/\.yaml$/, '')}: ${u.message}`);
  for (const f of input.prune?.failed ?? []) lines.push(f.message);
  for (const h of input.prune?.plan.held ?? []) lines.push(h.message);
  for (const h of input.prune?.terminating ?? []) lines.push(h.message);
  if (input.inventoryProblem) lines.push(input.inventoryProblem);
  return [...new Set(lines)];
}
