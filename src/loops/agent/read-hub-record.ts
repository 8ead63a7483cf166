// What the hub's bindings head says of this cluster, for the return handshake
// (core/apply-plan/return-gate.ts): every bindings commit names the status head it read for
// every cluster (Gitfleet-Status-Commit), the clusters its monitor judges (Gitfleet-Cluster-Judged)
// and the cluster-branch heads after its pass (Gitfleet-Cluster-Commit). The agent's mirror
// holds the bindings branch (agent-repo.ts agentMirrorRefs).
import { isAncestor } from '../../adapters/git/is-ancestor.js';
import { readCommit } from '../../adapters/git/read-typed-object.js';
import { readRef } from '../../adapters/git/read-ref.js';
import type { HubRecord } from '../../core/apply-plan/return-gate.js';
import { clusterJudgedTrailer } from '../../core/failover/failover-trailers.js';
import { parseTrailers } from '../../core/publish/commit-trailers.js';
import { clusterCommitTrailer, parseClusterTrailers } from '../../core/publish/cluster-commit-trailers.js';
import { bindingsRef } from '../../core/publish/hub-refs.js';
import { statusCommitTrailer } from '../../core/status/status-branch.js';

/** Returns how the bindings head judges the cluster and whether it read the return report (`report`) or a later status. */
export async function readHubRecord(opts: {
  gitdir: string;
  /** Where the cluster branch's commits are, when not in `gitdir` (a render repository). */
  branchGitdir?: string;
  branchPrefix: string;
  cluster: string;
  /** The return report: the status commit the hub must have read. */
  report?: string;
  /** The cluster-branch commit the pass applies; absent: only `judged` is wanted (no history walked). */
  applied?: string;
}): Promise<HubRecord> {
  const head = await readRef(opts.gitdir, bindingsRef(opts.branchPrefix));
  if (head === null) return { readsReport: false, renderedApplied: false };
  const trailers = parseTrailers((await readCommit({ gitdir: opts.gitdir }, head)).message);
  const mine = (values: readonly string[] | undefined): string | undefined =>
    (values ?? []).find((v) => v.startsWith(`${opts.cluster}=`))?.slice(opts.cluster.length + 1);
  const judged = mine(trailers.get(clusterJudgedTrailer));
  const read = mine(trailers.get(statusCommitTrailer));
  const rendered = parseClusterTrailers(trailers.get(clusterCommitTrailer) ?? []).get(opts.cluster);
  const follows = (ancestor: string, descendant: string, gitdir = opts.gitdir): Promise<boolean> =>
    ancestor === descendant
      ? Promise.resolve(true)
      : isAncestor({ gitdir, ancestor, descendant }).catch(() => false);
  const applied = opts.applied;
  return {
    readsReport: opts.report !== undefined && read !== undefined && (await follows(opts.report, read)),
    ...(judged !== undefined ? { judged } : {}),
    renderedApplied:
      applied !== undefined &&
      (rendered === undefined || (await follows(rendered, applied, opts.branchGitdir))),
  };
}
