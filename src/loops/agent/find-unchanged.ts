// Before the staged apply: the desired objects found exactly as the last report saw them, told
// apart from one metadata-only list per kind, so a pass with nothing new neither reads whole
// objects nor asks anything per object. An object is unchanged when it is ours, at the
// resourceVersion the agent last saw match (agent-memory.ts `settled`), with the manifest the
// inventory says was applied, and the last report judged it at that resourceVersion with the same
// interpreter (`observed`): plan-apply.ts would skip it, and its health is what it was. Everything
// else goes to the staged apply, which sees it whole (live-index.ts `readWhole`).
import { kindKeyOf } from '../../core/apply-plan/plan-prune.js';
import { liveStateOf } from '../../core/apply-plan/plan-apply.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import { refKey, type ObjectRef } from '../../core/model/object-ref.js';
import type { ApplyContext } from './apply-context.js';
import type { ObjectResult } from './object-result.js';
import type { DesiredObject } from './read-cluster-branch.js';

export interface UnchangedSplit {
  /** Results of the objects found as last reported (action `unchanged`, with their record). */
  unchanged: ObjectResult[];
  /** The objects the staged apply must look at, in their order. */
  rest: DesiredObject[];
}

/** Returns the objects found as last reported, as results, and the rest to apply. */
export async function findUnchanged(
  ctx: ApplyContext,
  objects: readonly DesiredObject[],
): Promise<UnchangedSplit> {
  const split: UnchangedSplit = { unchanged: [], rest: [] };
  for (const group of byKind(objects)) {
    const kind = group[0]!.ref;
    const listing = await ctx.live.metadataOf(kind);
    if (listing === undefined || listing.type === 'error') {
      // Not listed by metadata (or it failed: maybe its CRD comes in this pass): the apply lists it.
      split.rest.push(...group);
      continue;
    }
    const toRead: ObjectRef[] = [];
    for (const desired of group) {
      const live = listing.byKey.get(refKey(desired.ref));
      const result = live && unchangedResult(ctx, desired, live);
      if (result) split.unchanged.push(result);
      else {
        split.rest.push(desired);
        if (live) toRead.push(desired.ref);
      }
    }
    ctx.live.readWhole(kind, listing.byKey, toRead);
  }
  return split;
}

/** Returns the object's result when it is as last reported (see above), else undefined. */
function unchangedResult(
  ctx: ApplyContext,
  desired: DesiredObject,
  live: KubeObject,
): ObjectResult | undefined {
  const rv = live.metadata.resourceVersion;
  const key = refKey(desired.ref);
  const observed = ctx.memory.observed.get(key);
  if (typeof rv !== 'string' || observed?.resourceVersion !== rv) return undefined;
  if (observed.interpreter !== ctx.interpreter || ctx.memory.settled.get(key) !== rv) return undefined;
  if (ctx.inventory.get(key)?.digest !== desired.digest) return undefined;
  const state = liveStateOf(ctx, live, true, true);
  if (state.type !== 'ours' || state.remark) return undefined;
  return {
    ref: desired.ref,
    path: desired.path,
    digest: desired.digest,
    action: 'unchanged',
    applied: true,
    live,
    record: observed.record,
  };
}

/** Returns the objects grouped by kind, each group in the objects' order. */
function byKind(objects: readonly DesiredObject[]): DesiredObject[][] {
  const groups = new Map<string, DesiredObject[]>();
  for (const o of objects) {
    const key = kindKeyOf(o.ref);
    const group = groups.get(key);
    if (group) group.push(o);
    else groups.set(key, [o]);
  }
  return [...groups.values()];
}
