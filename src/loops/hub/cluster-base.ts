// Which commit of a cluster branch the hub reads as "what the cluster has": the branch's head
// when the hub wrote it, else the commit the hub last wrote there. Someone who can push the
// branch but holds no hub key must never choose what the hub writes next: the branch planner
// restores the hub's commit over theirs, and the rollout stage reads the objects a held cluster
// keeps from the same commit, so content pushed by hand is never carried into a commit the hub
// signs (docs/security.md#who-can-do-what).
import { GitWriteError } from '../../adapters/git/git-write-error.js';
import { readCommit } from '../../adapters/git/read-typed-object.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import { parseTrailers, sourceCommitTrailer } from '../../core/publish/commit-trailers.js';
import { needsSignature } from './pass-context.js';
import { readCommitFiles, readCommitInfo, type ReadContext } from './read-git-state.js';
import type { HubState } from './read-hub-state.js';

/** What a cluster branch holds as the hub reads it: the commit, its tree's files, and, when it is not the head, the commit the pass restores. */
export interface ClusterBase {
  commit: string | null;
  current: { tree: string | null; files: ReadonlyMap<string, string> };
  restore?: { lastWritten: string };
}

/**
 * Returns the head when it is the commit the hub last wrote there, or the hub's own next commit
 * on top of it (a pass that moved the cluster branches and was killed before the bindings
 * branch; signed with the hub's key when the hub signs); else the hub's last commit, which the
 * pass restores. Without a record (an unregistered cluster, a bindings branch that never
 * recorded one), or when that commit is gone (garbage collected), the head is all there is.
 */
export async function clusterBase(
  ctx: ReadContext & { signer?: CommitSigner },
  state: HubState,
  cluster: string,
  registered: boolean,
): Promise<ClusterBase> {
  const head = state.clusterHeads.get(cluster) ?? null;
  const atHead = async (): Promise<ClusterBase> => ({
    commit: head,
    current: await readCommitFiles(ctx, head),
  });
  // An unregistered cluster's branch gets its tombstone on top of whatever it holds.
  const lastWritten = registered ? state.bindings.lastClusters.get(cluster) : undefined;
  if (lastWritten === undefined || lastWritten === head) return atHead();
  if (head !== null && (await isNextHubCommit(ctx, head, lastWritten))) return atHead();
  try {
    return {
      commit: lastWritten,
      current: await readCommitFiles(ctx, lastWritten),
      restore: { lastWritten },
    };
  } catch (error) {
    if (error instanceof GitWriteError && error.code === 'MissingObject') return atHead();
    throw error;
  }
}

/** Whether a commit is one the hub makes (a render or tombstone commit, with the source trailer, signed when the hub signs) on top of `parent`. */
async function isNextHubCommit(
  ctx: ReadContext & { signer?: CommitSigner },
  commit: string,
  parent: string,
): Promise<boolean> {
  const { parents } = await readCommit(ctx.store, commit);
  if (parents.length !== 1 || parents[0] !== parent) return false;
  if (!parseTrailers((await readCommitInfo(ctx, commit)).message).has(sourceCommitTrailer)) return false;
  return !(await needsSignature(ctx, commit));
}
