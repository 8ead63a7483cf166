// What the agent does when the API server refuses an apply: classify the refusal
// (classify-apply-error.ts), recreate the object when it hit an immutable field and opted in,
// and otherwise report it with the field paths the server named.
import {
  classifyApplyError,
  isRetryable,
  planImmutableChange,
} from '../../core/apply-plan/classify-apply-error.js';
import type { ApiRefusal } from '../../core/model/api-refusal.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import { refKey } from '../../core/model/object-ref.js';
import type { ApplyContext } from './apply-context.js';
import type { ObjectResult } from './object-result.js';
import { pollUntil } from './poll-until.js';
import { asOf } from './apply-as.js';
import type { DesiredObject } from './read-cluster-branch.js';

type Outcome = Omit<ObjectResult, 'ref' | 'path' | 'digest'>;

const goneTimeoutMs = 60_000;

/** Returns the outcome of a refused apply, after recreating the object when that is what it asked for. */
export async function handleRefusal(
  ctx: ApplyContext,
  desired: DesiredObject,
  manifest: KubeObject,
  refusal: ApiRefusal,
  opts: { dryRun?: boolean } = {},
): Promise<Outcome> {
  const error = classifyApplyError(refusal);
  const what = opts.dryRun ? 'dry-run apply' : 'apply';
  if (error.type === 'Immutable') {
    const plan = planImmutableChange(desired.ref, desired.manifest, error.fields);
    if (plan.type === 'report' || opts.dryRun) {
      const message =
        plan.type === 'report' ? plan.message : `immutable field changed: ${error.fields.join(', ')}`;
      return {
        action: 'failed',
        applied: false,
        retryable: false,
        message: `${message} (${refusal.message})`,
      };
    }
    return recreate(ctx, desired, manifest);
  }
  if (refusal.code === 403) {
    // What check-permissions.ts did not foresee (a review without an answer, an admission
    // webhook, RBAC's escalation check on a Role): the server's message names user, verb,
    // resource and namespace.
    return {
      action: 'failed',
      applied: false,
      retryable: true,
      message: `forbidden: ${what}: ${refusal.message}`,
    };
  }
  const fields = 'fields' in error && error.fields.length > 0 ? ` [${error.fields.join(', ')}]` : '';
  return {
    action: 'failed',
    applied: false,
    retryable: isRetryable(error),
    message: `${what} failed: ${refusal.code || 'no answer'} ${refusal.reason ?? error.type}${fields}: ${refusal.message}`,
  };
}

/** Deletes the object, waits until it is gone, and applies it again. */
async function recreate(ctx: ApplyContext, desired: DesiredObject, manifest: KubeObject): Promise<Outcome> {
  // Deleted as whom the object is applied as (a tenant's ServiceAccount): its recreation is its own.
  const deleted = await ctx.client.delete(desired.ref, asOf(manifest));
  if (deleted.type === 'refused') {
    return {
      action: 'failed',
      applied: false,
      retryable: true,
      message: `recreate: delete failed: ${deleted.refusal.message}`,
    };
  }
  const gone = await pollUntil({
    clock: ctx.clock,
    timeoutMs: goneTimeoutMs,
    intervalMs: 250,
    check: async () => (await ctx.client.get(desired.ref).catch(() => null)) === undefined,
  });
  if (!gone) {
    return {
      action: 'failed',
      applied: false,
      retryable: true,
      message: `recreate: still there ${goneTimeoutMs / 1000}s after its deletion`,
    };
  }
  const result = await ctx.client.apply(manifest, { force: false, ...asOf(manifest) });
  if (result.type === 'refused') {
    return {
      action: 'failed',
      applied: false,
      retryable: true,
      message: `recreate: apply failed: ${result.refusal.message}`,
    };
  }
  const rv = result.live.metadata.resourceVersion;
  if (typeof rv === 'string') ctx.memory.settled.set(refKey(desired.ref), rv);
  return { action: 'recreated', applied: true, live: result.live };
}
