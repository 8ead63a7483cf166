// Reads from git what judgeDeletionAllowance (core/apply-plan/judge-deletion-allowance.ts) needs
// to decide whether the cluster branch head's Gitfleet-Allow-Deletions trailer comes from the
// hub: the head's author and committer, the source commit it names, and whether the bindings
// branch (whose commits carry the Gitfleet-Source-Commit trailer of each source commit the hub
// rendered) records that source commit. A remote repository's agent mirror fetches the
// bindings branch (agent-repo.ts agentMirrorRefs), and, while the head allows deletions, the
// source branch the head names, so the source commit is there too. For an eviction (the head names one from this cluster) it also finds the
// bindings commit that recorded the head: the oldest of the newest-first run of commits whose
// Gitfleet-Cluster-Commit trailer names it (the same walk, which stops once both are known).
import { withCache, type ObjectSource } from '../../adapters/git/read-git-object.js';
import { readCommit as readGitCommit, type GitCommit } from '../../adapters/git/read-typed-object.js';
import { readRef } from '../../adapters/git/read-ref.js';
import {
  evictedClustersOf,
  judgeDeletionAllowance,
  sourceCommitOf,
  type AllowanceVerdict,
  type Signature,
} from '../../core/apply-plan/judge-deletion-allowance.js';
import { deletionsAllowedBy, parseTrailers } from '../../core/publish/commit-trailers.js';
import { clusterCommitTrailer, parseClusterTrailers } from '../../core/publish/cluster-commit-trailers.js';
import { bindingsRef } from '../../core/publish/hub-refs.js';

/** How far back the bindings branch is searched for the source commit (it gets a commit per source commit and per status change). */
const maxBindingsWalk = 20_000;

/** Returns whether the head's deletion allowance is proven; `trusted` caches heads proven before (a proof does not expire). */
export async function readDeletionAllowance(opts: {
  gitdir: string;
  /** Where the cluster branch's commits are, when not in `gitdir` (a render repository). */
  branchGitdir?: string;
  branchPrefix: string;
  cluster: string;
  commit: string;
  message: string;
  hub: Signature;
  trusted: Set<string>;
  /** With trusted keys: the verdict in words on a bindings commit not signed by one (undefined when it is). */
  verify?: (oid: string) => Promise<string | undefined>;
}): Promise<AllowanceVerdict> {
  if (!deletionsAllowedBy(opts.message)(opts.cluster)) return { type: 'none' };
  if (opts.trusted.has(opts.commit)) return { type: 'trusted' };
  const source = withCache({ gitdir: opts.gitdir });
  const head = await readCommit(withCache({ gitdir: opts.branchGitdir ?? opts.gitdir }), opts.commit);
  if (!head) return { type: 'untrusted', reason: `its commit ${opts.commit.slice(0, 12)} cannot be read` };
  const named = sourceCommitOf(head.message);
  const sourceCommit = named === undefined ? undefined : await readCommit(source, named);
  const found = await walkBindings(source, bindingsRef(opts.branchPrefix), {
    ...(named !== undefined ? { sourceCommit: named } : {}),
    ...(evictedClustersOf(head.message).has(opts.cluster)
      ? { clusterCommit: { cluster: opts.cluster, oid: opts.commit } }
      : {}),
  });
  const verdict = judgeDeletionAllowance({
    cluster: opts.cluster,
    commit: head,
    hub: opts.hub,
    ...(sourceCommit && named ? { source: { oid: named, message: sourceCommit.message } } : {}),
    bindingsRecordSource: found.recordsSource,
    ...(found.recordedBy ? { recordedBy: found.recordedBy } : {}),
  });
  const signed = verdict.type === 'trusted' ? await unsignedLink(opts.verify, found) : undefined;
  if (signed !== undefined) return { type: 'untrusted', reason: signed };
  if (verdict.type === 'trusted') opts.trusted.add(opts.commit);
  return verdict;
}

/** Returns why a bindings commit the allowance rests on is not signed by a trusted key, or undefined. */
async function unsignedLink(
  verify: ((oid: string) => Promise<string | undefined>) | undefined,
  found: { sourceRecordedAt?: string; recordedBy?: { oid: string } },
): Promise<string | undefined> {
  if (verify === undefined) return undefined;
  for (const oid of [found.sourceRecordedAt, found.recordedBy?.oid]) {
    const problem = oid === undefined ? undefined : await verify(oid);
    if (problem !== undefined)
      return `the bindings commit it rests on is not signed by a trusted key: ${problem}`;
  }
  return undefined;
}

interface CommitFacts {
  author: Signature;
  committer: Signature;
  message: string;
  parent?: string;
}

async function readCommit(source: ObjectSource, oid: string): Promise<CommitFacts | undefined> {
  if (!/^[0-9a-f]{40}$/.test(oid)) return undefined;
  let commit: GitCommit;
  try {
    commit = await readGitCommit(source, oid);
  } catch {
    return undefined; // missing, not a commit, or without a tree: the allowance is not proven
  }
  const nobody: Signature = { name: '', email: '' };
  const parent = commit.parents[0];
  return {
    author: commit.author ?? nobody,
    committer: commit.committer ?? nobody,
    message: commit.message,
    ...(parent ? { parent } : {}),
  };
}

/**
 * Walks the bindings branch (first parents, newest first) for whether a commit names the source
 * commit, and for the oldest commit of the run that names the cluster commit; stops once both are known.
 */
async function walkBindings(
  source: ObjectSource,
  ref: string,
  want: { sourceCommit?: string; clusterCommit?: { cluster: string; oid: string } },
): Promise<{
  recordsSource: boolean;
  sourceRecordedAt?: string;
  recordedBy?: CommitFacts & { oid: string };
}> {
  let recordsSource = false;
  let sourceRecordedAt: string | undefined;
  let recordedBy: (CommitFacts & { oid: string }) | undefined;
  let clusterDone = want.clusterCommit === undefined;
  let at = await readRef(source.gitdir, ref);
  for (let seen = 0; at !== null && seen < maxBindingsWalk; seen++) {
    if ((recordsSource || want.sourceCommit === undefined) && clusterDone) break;
    const commit = await readCommit(source, at);
    if (!commit) break;
    if (
      want.sourceCommit !== undefined &&
      !recordsSource &&
      sourceCommitOf(commit.message) === want.sourceCommit
    ) {
      recordsSource = true;
      sourceRecordedAt = at;
    }
    if (!clusterDone && want.clusterCommit) {
      const heads = parseClusterTrailers(parseTrailers(commit.message).get(clusterCommitTrailer) ?? []);
      if (heads.get(want.clusterCommit.cluster) === want.clusterCommit.oid)
        recordedBy = { ...commit, oid: at };
      else if (recordedBy) clusterDone = true;
    }
    at = commit.parent ?? null;
  }
  return {
    recordsSource,
    ...(sourceRecordedAt ? { sourceRecordedAt } : {}),
    ...(recordedBy ? { recordedBy } : {}),
  };
}
