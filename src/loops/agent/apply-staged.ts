// The staged apply (apply-order.ts): kinds one after another in apply order, the objects of one
// kind side by side; after the CRDs, wait until the ones this pass created or changed are
// Established and read discovery again, so the custom resources that follow are served.
import { applyBatches, applyStage, isCrd } from '../../core/apply-plan/apply-order.js';
import { mapConcurrent } from '../../adapters/map-concurrent.js';
import { applyObject } from './apply-object.js';
import type { ApplyContext } from './apply-context.js';
import type { ObjectResult } from './object-result.js';
import type { DesiredObject } from './read-cluster-branch.js';
import { waitForEstablished } from './wait-established.js';
import type { Progress } from '../runtime/progress.js';

/**
 * Objects of one kind in flight at once, by default. More in flight lets the API server and
 * etcd batch their work: on a test cluster the CPU per applied object (agent, kube-apiserver
 * and etcd together) fell by about a fifth from 16 to 64 and no further beyond
 * (docs/performance-agent.md). A server that cannot take them answers 429 with a Retry-After,
 * which KubeHttp waits out and resends.
 */
export const defaultApplyConcurrency = 64;

export interface StagedApplyOptions {
  /** Objects of one kind applied at once. */
  concurrency: number;
  /** How long to wait for CRDs to be Established. */
  crdTimeoutMs: number;
  /** Told after each object is applied (or found unchanged, or failed). */
  progress?: Progress;
  /** Called before each object: throws to stop the apply there (the agent lost its Lease). */
  stopIfLost?: () => void;
}

/** Applies every object in stage and kind order and returns each object's result, in apply order. */
export async function applyStaged(
  ctx: ApplyContext,
  objects: readonly DesiredObject[],
  opts: StagedApplyOptions,
): Promise<ObjectResult[]> {
  const results: ObjectResult[] = [];
  let crdsSettled = false;
  let done = 0;
  const apply = async (o: DesiredObject): Promise<ObjectResult> => {
    opts.stopIfLost?.();
    const result = await applyObject(ctx, o);
    opts.progress?.(++done, objects.length);
    return result;
  };
  for (const batch of applyBatches(objects)) {
    if (!crdsSettled && applyStage(batch[0]!.ref) > 0) {
      await settleCrds(ctx, results, opts.crdTimeoutMs);
      crdsSettled = true;
    }
    results.push(...(await mapConcurrent(batch, opts.concurrency, apply)));
  }
  if (!crdsSettled) await settleCrds(ctx, results, opts.crdTimeoutMs);
  return results;
}

/** Waits for the CRDs written this pass and refreshes discovery; a CRD that never gets Established is reported on it. */
async function settleCrds(ctx: ApplyContext, results: ObjectResult[], timeoutMs: number): Promise<void> {
  const written = results.filter((r) => isCrd(r.ref) && r.applied && r.action !== 'unchanged');
  if (written.length === 0) return;
  const late = new Set(
    await waitForEstablished({
      client: ctx.client,
      clock: ctx.clock,
      names: written.map((r) => r.ref.name),
      timeoutMs,
    }),
  );
  for (const r of written) {
    if (late.has(r.ref.name)) {
      r.applied = false;
      r.retryable = true;
      r.message = `applied, but not Established after ${Math.round(timeoutMs / 1000)}s`;
    }
  }
  await ctx.client.refreshDiscovery();
}
