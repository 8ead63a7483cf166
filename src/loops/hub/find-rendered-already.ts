// The first look of a pass: is the source head rendered already, with every hub branch as the
// hub left it? That is answered from refs and two commit objects (the source head's and the
// bindings head's), before any tree is read, so a pass with nothing to do costs the same on a
// repository of 200,000 files as on one of twenty.
//
// The branch prefix is the source's FleetConfig's, which is in the tree; instead, every branch
// named `<prefix>bindings` is a candidate. Only a hub writes a bindings commit naming source
// commit S, and it writes it under S's own prefix, so a candidate whose head names S is the one.
import { listRefs } from '../../adapters/git/list-refs.js';
import { sameClusterHeads } from '../../core/publish/cluster-commit-trailers.js';
import type { SourceCommit } from './hub-pass-result.js';
import type { SourceHead } from './read-source-commit.js';
import { readBindingsHead, readClusterHeads, type BindingsHead } from './read-hub-state.js';
import { readCommitInfo, subjectOf, type ReadContext } from './read-git-state.js';
import { readStatusHeads, sameStatusHeads } from './read-status-branches.js';

const heads = 'refs/heads/';

/**
 * Returns the source commit and the bindings commit when the source head is rendered, no
 * hub branch moved since (status branches included) and no refused deletion is pending; null when a pass has work to do.
 */
export async function findRenderedAlready(
  ctx: ReadContext,
  /** The source head the pass resolved. */
  head: SourceHead,
  /** Whether the failover state the head records is still current (no decision due, the same verdicts). */
  failoverCurrent: (head: BindingsHead) => boolean = () => true,
  /** Whether the bindings head must be signed again (hub --signing-key with a new key): then the pass runs. */
  needsSignature: (commit: string) => Promise<boolean> = () => Promise.resolve(false),
): Promise<{ source: SourceCommit; bindingsCommit: string } | null> {
  const { ref, commit } = head;
  for (const prefix of await bindingsPrefixes(ctx)) {
    const bindings = await readBindingsHead(ctx, prefix);
    const done = await isRenderedAlready(bindings, {
      source: commit,
      failoverCurrent,
      needsSignature,
      statusHeads: () => readStatusHeads(ctx, prefix),
      clusterHeads: () => readClusterHeads(ctx, prefix),
    });
    if (!done) continue;
    const { message } = await readCommitInfo(ctx, commit);
    return { source: { ref, commit, subject: subjectOf(message), message }, bindingsCommit: bindings.head! };
  }
  return null;
}

/**
 * Whether the bindings record says a pass of `source` has nothing to do: it names that source
 * commit, its failover state is current, it records no refused deletion and no branch a render
 * repository held (both still pending: the full pass judges them again), it needs no new
 * signature, and no status or cluster branch moved since it was written (a branch someone else
 * moved needs a pass: trivially as written when the record names none, as one written before
 * these records were kept). The quick look above and the full pass (hub-pass.ts) both ask it.
 */
export async function isRenderedAlready(
  bindings: BindingsHead,
  input: {
    source: string;
    failoverCurrent: (head: BindingsHead) => boolean;
    needsSignature: (commit: string) => Promise<boolean>;
    statusHeads: () => Promise<ReadonlyMap<string, string>>;
    clusterHeads: () => Promise<ReadonlyMap<string, string>>;
  },
): Promise<boolean> {
  if (bindings.head === null || bindings.lastSource !== input.source) return false;
  if (!input.failoverCurrent(bindings) || bindings.refused.length > 0 || bindings.held.length > 0)
    return false;
  if (await input.needsSignature(bindings.head)) return false;
  if (!sameStatusHeads(bindings.lastStatus, await input.statusHeads())) return false;
  const recorded = bindings.lastClusters;
  return recorded.size === 0 || sameClusterHeads(recorded, await input.clusterHeads());
}

/** Returns the prefix of every branch that could be a bindings branch (`refs/heads/<prefix>bindings`). */
async function bindingsPrefixes(ctx: ReadContext): Promise<string[]> {
  const names = [...(await listRefs(ctx.store.gitdir, heads)).keys()];
  return names.filter((n) => n.endsWith('bindings')).map((n) => n.slice(heads.length, -'bindings'.length));
}
