// The writes a pass adds for render repositories (place-cluster-branches.ts): a cluster whose
// repository cannot be read or written keeps its branch and its records (its plan is held), and
// a branch left outside its cluster's repository gets a tombstone, once.
import type { Diagnostic } from '../../core/model/diagnostic.js';
import { movedTombstoneMessage } from '../../core/publish/render-move.js';
import { tombstoneMessage } from '../../core/publish/tombstone.js';
import type { ClusterBranchPlan } from './plan-cluster-branch.js';
import type { ClusterPassOutcome, HubPassResult } from './hub-pass-result.js';
import type { StrayBranch } from './place-cluster-branches.js';
import { commitOfPass, type BranchWrite, type PassContext } from './pass-context.js';
import { tombstoneTree } from './tombstone-tree.js';

/**
 * Returns the plan of a held cluster: nothing written, the paths its render would have changed
 * kept in the bindings records (so no record says a cluster runs what was not published), and
 * an error diagnostic naming the repository.
 */
export function holdPlan(cluster: string, plan: ClusterBranchPlan, reason: string): ClusterBranchPlan {
  const o = plan.outcome;
  const counts =
    o.type === 'updated' || o.type === 'refused'
      ? { added: o.added, changed: o.changed, removed: o.removed }
      : { added: 0, changed: 0, removed: 0 };
  const diagnostic: Diagnostic = {
    severity: 'error',
    code: 'RenderRepositoryUnavailable',
    subject: `Cluster/${cluster}`,
    cluster,
    message: `${reason}; the branch keeps its last published commit, and the next pass tries again`,
  };
  return {
    outcome: { type: 'held', reason, ...counts },
    diagnostic,
    refusedPaths: [...(plan.refusedPaths ?? []), ...(plan.changedPaths ?? [])],
  };
}

/** Returns the tombstone commit of each stray branch (none is one already), each move bound for its repository. */
export async function planStrayTombstones(
  ctx: PassContext,
  strays: readonly StrayBranch[],
  clusterRef: (cluster: string) => string,
): Promise<BranchWrite[]> {
  const writes: BranchWrite[] = [];
  for (const stray of strays) {
    const removed = tombstoneTree(stray.cluster, 'removed');
    const moved = tombstoneTree(stray.cluster, 'moved');
    const source = { sourceCommit: ctx.sourceCommit.commit, sourceRef: ctx.sourceCommit.ref };
    const [objects, message] =
      stray.to === 'removed'
        ? [removed.objects, tombstoneMessage({ cluster: stray.cluster, ...source })]
        : [moved.objects, movedTombstoneMessage({ cluster: stray.cluster, to: stray.to, ...source })];
    const commit = await commitOfPass(ctx, { tree: objects.at(-1)!.oid, parent: stray.head, message });
    writes.push({
      move: {
        ref: clusterRef(stray.cluster),
        oldOid: stray.head,
        newOid: commit.oid,
        ...(stray.url !== undefined ? { repository: stray.url, leftBehind: true } : {}),
      },
      objects: [...objects, commit],
    });
  }
  return writes;
}

/**
 * Returns the result with the branches an earlier attempt of the pass published (before a render
 * repository refused the write) named as updated, not as unchanged by the attempt that followed.
 */
export function withPublished(
  result: HubPassResult,
  earlier: Readonly<Record<string, ClusterPassOutcome>>,
): HubPassResult {
  if (result.type !== 'rendered') return result;
  const clusters = { ...result.clusters };
  for (const [cluster, outcome] of Object.entries(earlier)) {
    const now = clusters[cluster];
    const wrote = outcome.type === 'updated' || outcome.type === 'tombstoned';
    if (wrote && (now?.type === 'unchanged' || now?.type === 'retired')) clusters[cluster] = outcome;
  }
  return { ...result, clusters };
}
