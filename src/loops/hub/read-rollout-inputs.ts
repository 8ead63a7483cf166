// What the rollout stage reads from the repository besides the cluster trees: the rollout
// records of the bindings branch, and the approvals on the source branch.
import { approvalsOf } from '../../core/rollout/rollout-trailers.js';
import { rolloutDir } from '../../core/rollout/rollout-record.js';
import { readBlobText, readCommit } from '../../adapters/git/read-typed-object.js';
import { readCommitInfo, type ReadContext } from './read-git-state.js';

/** How far back along the source branch's first parents approvals are looked for. */
const maxApprovalCommits = 200;

/** Returns the texts of the rollout records of the bindings branch (path → text). */
export async function readRecords(
  ctx: ReadContext,
  files: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  const recorded = new Map<string, string>();
  for (const [path, oid] of files)
    if (path.startsWith(rolloutDir)) recorded.set(path, await readText(ctx, oid));
  return recorded;
}

/** Returns a blob's text. */
export async function readText(ctx: ReadContext, oid: string): Promise<string> {
  return readBlobText(ctx.store, oid);
}

/** Returns the revisions the records name. */
export function recordedRevisions(recorded: ReadonlyMap<string, string>): Set<string> {
  const revisions = new Set<string>();
  for (const text of recorded.values()) {
    const m = /^revision: "?([0-9a-f]{40})"?$/m.exec(text);
    if (m) revisions.add(m[1]!);
  }
  return revisions;
}

/**
 * Returns the approvals on the source branch: from the rendered commit back along first
 * parents until every recorded revision was passed (or maxApprovalCommits), newest first.
 */
export async function readApprovals(
  ctx: ReadContext,
  from: string,
  revisions: ReadonlySet<string>,
): Promise<{ commit: string; approvals: string[] }[]> {
  const found: { commit: string; approvals: string[] }[] = [];
  const unseen = new Set(revisions);
  let commit: string | undefined = from;
  for (let i = 0; commit && i < maxApprovalCommits; i++) {
    const { message } = await readCommitInfo(ctx, commit);
    found.push({ commit, approvals: approvalsOf(message) });
    unseen.delete(commit);
    if (unseen.size === 0) break;
    commit = (await readCommit(ctx.store, commit)).parents[0];
  }
  return found;
}
