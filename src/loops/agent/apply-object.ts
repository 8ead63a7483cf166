// Applies one desired object: reads what is live, asks the pure decision (plan-apply.ts) what
// to do, checks drift with a server dry-run when the object was written since the agent last
// saw it match, and carries the decision out. The outcome is data; nothing is thrown for a
// refusal of this one object.
import { retainMemberFields } from '../../core/interpret/retain-member-fields.js';
import { markOwned } from '../../core/apply-plan/mark-owned.js';
import { InternalError } from '../../core/model/gitfleet-error.js';
import { driftedFields, hasDrifted } from '../../core/apply-plan/has-drifted.js';
import { addDriftNote } from '../../core/apply-plan/drift-report-lines.js';
import {
  conflictResolutionOf,
  liveStateOf,
  planApply,
  type ApplyDecision,
  type ApplyReason,
} from '../../core/apply-plan/plan-apply.js';
import { planDriftCorrection, recordCorrection } from '../../core/apply-plan/plan-drift-correction.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import { refKey, refLabel } from '../../core/model/object-ref.js';
import type { ApplyContext } from './apply-context.js';
import { handleRefusal } from './handle-refusal.js';
import type { ObjectAction, ObjectResult } from './object-result.js';
import type { DesiredObject } from './read-cluster-branch.js';
import { asOf } from './apply-as.js';

const actionOf: Record<ApplyReason, ObjectAction> = {
  create: 'created',
  update: 'updated',
  driftCorrection: 'driftCorrected',
  takeOver: 'takenOver',
};

/** Applies one object when it needs it and returns what happened. */
export async function applyObject(ctx: ApplyContext, desired: DesiredObject): Promise<ObjectResult> {
  const base = { ref: desired.ref, path: desired.path, digest: desired.digest };
  const key = refKey(desired.ref);
  const listing = await ctx.live.ours(desired.ref);
  if (listing.type === 'error') {
    return {
      ...base,
      action: 'failed',
      applied: false,
      retryable: true,
      message: `cannot list ${desired.ref.kind}: ${listing.message}`,
    };
  }
  let live: KubeObject | undefined;
  try {
    live = listing.byKey.get(key) ?? (await ctx.live.other(desired.ref));
  } catch (error) {
    return { ...base, action: 'failed', applied: false, retryable: true, message: (error as Error).message };
  }
  const known = ctx.memory.terminal.get(key);
  if (known && known.digest === desired.digest && known.resourceVersion === rvOf(live)) {
    // The same manifest against the same live object would fail the same way: no request.
    return {
      ...base,
      action: 'failed',
      applied: false,
      retryable: false,
      message: known.message,
      ...(live ? { live } : {}),
    };
  }
  // A Retain script keeps the fields the member cluster owns, so the agent does not fight them;
  // it runs ahead, off the event loop (the synchronous call then takes its result).
  if (live)
    await ctx.interpreter?.prepare?.([{ operation: 'Retain', object: desired.manifest, observed: live }]);
  const retained = retainMemberFields(ctx.interpreter, desired.manifest, live);
  if (!retained.ok)
    return {
      ...base,
      action: 'failed',
      applied: false,
      retryable: false,
      message: retained.error,
      ...(live ? { live } : {}),
    };
  const manifest = markOwned(retained.object, { cluster: ctx.cluster, fleet: ctx.fleet });
  const result = await carryOut(ctx, desired, manifest, live);
  if (result.action === 'failed' && result.retryable === false) {
    ctx.memory.terminal.set(key, {
      digest: desired.digest,
      resourceVersion: rvOf(live),
      message: result.message ?? 'failed',
    });
  } else ctx.memory.terminal.delete(key);
  return {
    ...base,
    ...result,
    ...(result.live === undefined && live && result.action !== 'refused' ? { live } : {}),
  };
}

type Outcome = Omit<ObjectResult, 'ref' | 'path' | 'digest'>;

/** Decides and applies; returns the outcome without the object's identity. */
async function carryOut(
  ctx: ApplyContext,
  desired: DesiredObject,
  manifest: KubeObject,
  live: KubeObject | undefined,
): Promise<Outcome> {
  const key = refKey(desired.ref);
  const decided = await decide(ctx, desired, manifest, live);
  if ('result' in decided) return decided.result;
  const decision = decided.decision;
  if (decision.type === 'skip') return { action: 'unchanged', applied: true };
  if (decision.type === 'refuse') return { action: 'refused', applied: false, message: decision.message };
  if (decision.type !== 'apply') throw new InternalError(`${key}: undecided after the drift check`);
  if (decision.reason === 'driftCorrection') {
    const fight = planDriftCorrection({
      history: ctx.memory.corrections.get(key) ?? [],
      nowMs: ctx.clock.now(),
      settings: ctx.memory.fight,
    });
    if (fight.type === 'backOff') return { action: 'driftPaused', applied: false, message: fight.message };
  }
  const result = await ctx.client.apply(manifest, { force: decision.force, ...asOf(manifest) });
  if (result.type === 'refused') return handleRefusal(ctx, desired, manifest, result.refusal);
  settle(ctx, key, result.live);
  noteSpecApplied(ctx, key, live, result.live);
  if (decision.reason === 'driftCorrection') noteCorrection(ctx, desired, live, result.live);
  return { action: actionOf[decision.reason], applied: true, live: result.live };
}

// A drift correction counts toward the fight backoff and waits, summed, for the next status
// commit to tell it (its field paths, never a value).
function noteCorrection(
  ctx: ApplyContext,
  desired: DesiredObject,
  live: KubeObject | undefined,
  after: KubeObject,
): void {
  const key = refKey(desired.ref);
  const { memory } = ctx;
  memory.corrections.set(
    key,
    recordCorrection(memory.corrections.get(key) ?? [], ctx.clock.now(), memory.fight),
  );
  const fields = live ? driftedFields(live, after) : [];
  const correction = { object: refLabel(desired.ref), fields, recreated: live === undefined };
  memory.driftUntold.set(key, addDriftNote(memory.driftUntold, key, correction));
}

type Decided = { decision: ApplyDecision } | { result: Outcome };

/** Plans the object, settling a "written since" object with a server dry-run first. */
async function decide(
  ctx: ApplyContext,
  desired: DesiredObject,
  manifest: KubeObject,
  live: KubeObject | undefined,
): Promise<Decided> {
  const key = refKey(desired.ref);
  const settled = live !== undefined && ctx.memory.settled.get(key) === rvOf(live);
  const input = {
    cluster: ctx.cluster,
    fleet: ctx.fleet,
    digest: desired.digest,
    lastAppliedDigest: ctx.inventory.get(key)?.digest ?? '',
    live: liveStateOf(ctx, live, settled, ctx.inventory.has(key)),
    conflictResolution: conflictResolutionOf(desired.manifest),
  };
  const first = planApply(input);
  if (first.type !== 'checkDrift' || live === undefined) return { decision: first };
  const dry = await ctx.client.apply(manifest, { force: true, dryRun: true, ...asOf(manifest) });
  if (dry.type === 'refused') {
    return {
      result: { ...(await handleRefusal(ctx, desired, manifest, dry.refusal, { dryRun: true })), live },
    };
  }
  const drifted = hasDrifted(live, dry.live);
  if (!drifted) settle(ctx, key, live);
  return { decision: planApply({ ...input, drift: drifted ? 'drifted' : 'clean' }) };
}

function settle(ctx: ApplyContext, key: string, live: KubeObject): void {
  const rv = rvOf(live);
  if (rv !== undefined) ctx.memory.settled.set(key, rv);
}

/** Remembers when an apply changed the spec (a new generation), for the health of what it applied. */
function noteSpecApplied(
  ctx: ApplyContext,
  key: string,
  before: KubeObject | undefined,
  after: KubeObject,
): void {
  const generation = after.metadata.generation;
  if (typeof generation !== 'number' || generation === before?.metadata.generation) return;
  ctx.memory.specApplied.set(key, { generation, atMs: ctx.clock.now() });
}

function rvOf(live: KubeObject | undefined): string | undefined {
  const rv = live?.metadata.resourceVersion;
  return typeof rv === 'string' ? rv : undefined;
}
