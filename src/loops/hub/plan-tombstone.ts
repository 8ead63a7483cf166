// A cluster branch whose cluster is no longer registered: one tombstone commit (tombstone.ts),
// then nothing on later passes.
import type { ClusterPassOutcome } from './hub-pass-result.js';
import { commitOfPass, type BranchWrite, type PassContext } from './pass-context.js';
import { readCommitInfo } from './read-git-state.js';
import { tombstoneMessage } from '../../core/publish/tombstone.js';
import { tombstoneTree } from './tombstone-tree.js';

/** Returns the tombstone commit to write on an unregistered cluster's branch, or nothing when it has one. */
export async function planTombstone(
  ctx: PassContext,
  input: { cluster: string; ref: string; head: string },
): Promise<{ outcome: ClusterPassOutcome; write?: BranchWrite }> {
  const tree = tombstoneTree(input.cluster);
  const { tree: current } = await readCommitInfo(ctx, input.head);
  if (current === tree.root) return { outcome: { type: 'retired' } };
  const commit = await commitOfPass(ctx, {
    tree: tree.root,
    parent: input.head,
    message: tombstoneMessage({
      cluster: input.cluster,
      sourceCommit: ctx.sourceCommit.commit,
      sourceRef: ctx.sourceCommit.ref,
    }),
  });
  return {
    outcome: { type: 'tombstoned', commit: commit.oid },
    write: {
      move: { ref: input.ref, oldOid: input.head, newOid: commit.oid },
      objects: [...tree.objects, commit],
    },
  };
}
