// The first look of a pass: is the source head rendered already, with every hub branch as the
// hub left it? That is answered from refs and two commit objects (the source head's and the
// bindings head's), before any tree is read, so a pass with nothing to do costs the same on a
// repository of 200,000 files as on one of twenty.
//
// The branch prefix is the source's FleetConfig's, which is in the tree; instead, every branch
// named `<prefix>bindings` is a candidate. Only a hub writes a bindings commit naming source
// commit S, and it writes it under S's own prefix, so a candidate whose head names S is the one.
import { listRefs } from '../../adapters/git/list-refs.js';
import { resolveCommitTree } from '../../adapters/source/read-git-commit.js';
import { sameClusterHeads } from '../../core/publish/cluster-commit-trailers.js';
import type { SourceCommit } from './hub-pass-result.js';
import { fullSourceRef } from '../../core/publish/hub-refs.js';
import { readBindingsHead, readClusterHeads, type BindingsHead } from './read-hub-state.js';
import { readCommitInfo, subjectOf, type ReadContext } from './read-git-state.js';
import { readStatusHeads, sameStatusHeads } from './read-status-branches.js';

const heads = 'refs/heads/';

/**
 * Returns the source commit and the bindings commit when the source head is rendered, no
 * hub branch moved since (status branches included) and no refused deletion is pending; null when a pass has work to do, or
 * cannot tell without reading the source (then the full pass decides, and reports any error).
 */
export async function findRenderedAlready(
  ctx: ReadContext,
  sourceRef: string,
  /** Whether the failover state the head records is still current (no decision due, the same verdicts). */
  failoverCurrent: (head: BindingsHead) => boolean = () => true,
  /** Whether the bindings head must be signed again (hub --signing-key with a new key): then the pass runs. */
  needsSignature: (commit: string) => Promise<boolean> = () => Promise.resolve(false),
): Promise<{ source: SourceCommit; bindingsCommit: string } | null> {
  const ref = fullSourceRef(sourceRef);
  let commit: string;
  try {
    ({ commit } = await resolveCommitTree({ ...ctx.store, dir: ctx.store.gitdir }, ref));
  } catch {
    return null;
  }
  for (const prefix of await bindingsPrefixes(ctx)) {
    const bindings = await readBindingsHead(ctx, prefix);
    if (bindings.head === null || bindings.lastSource !== commit) continue;
    if (!failoverCurrent(bindings) || (await needsSignature(bindings.head))) return null;
    // A refused deletion is still pending: the full pass judges it again and reports it.
    if (bindings.refused.length > 0) return null;
    // So is a branch a render repository held, and the location of branches is not in this repository.
    if (bindings.held.length > 0) return null;
    if (!sameStatusHeads(bindings.lastStatus, await readStatusHeads(ctx, prefix))) return null;
    const recorded = bindings.lastClusters;
    if (recorded.size > 0 && !sameClusterHeads(recorded, await readClusterHeads(ctx, prefix))) return null;
    const { message } = await readCommitInfo(ctx, commit);
    return { source: { ref, commit, subject: subjectOf(message), message }, bindingsCommit: bindings.head };
  }
  return null;
}

/** Returns the prefix of every branch that could be a bindings branch (`refs/heads/<prefix>bindings`). */
async function bindingsPrefixes(ctx: ReadContext): Promise<string[]> {
  const names = [...(await listRefs(ctx.store.gitdir, heads)).keys()];
  return names.filter((n) => n.endsWith('bindings')).map((n) => n.slice(heads.length, -'bindings'.length));
}
