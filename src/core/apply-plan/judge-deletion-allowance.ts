// Whether the agent honours a Gitfleet-Allow-Deletions trailer on its cluster branch's head.
// Anyone who can push to the cluster branch can write that trailer (and any author name), so
// the trailer alone proves nothing. The hub writes it only when the source commit it renders
// allows deletions on the cluster, and records every source commit it renders on the bindings
// branch. The agent therefore takes the allowance only when every link holds:
//
// | check                                                              | when it fails                    |
// |--------------------------------------------------------------------|----------------------------------|
// | the commit's author and committer are the hub's identity           | "written by X, not the hub (…)"  |
// | it names its source commit (Gitfleet-Source-Commit)                | "names no source commit"         |
// | the bindings branch records that source commit                     | "the bindings branch does not record …" |
// | the source commit exists and itself allows deletions on the cluster | "the source commit … does not allow …" |
//
// Without proof the allowance is ignored and the agent's own mass-deletion guard applies.
import { deletionsAllowedBy, parseTrailers, sourceCommitTrailer } from '../publish/commit-trailers.js';

export interface Signature {
  name: string;
  email: string;
}

export interface AllowanceEvidence {
  cluster: string;
  /** The cluster branch's head commit. */
  commit: { author: Signature; committer: Signature; message: string };
  hub: Signature;
  /** The source commit the head names, when it could be read. */
  source?: { oid: string; message: string };
  /** Whether the bindings branch records that source commit. */
  bindingsRecordSource: boolean;
}

export type AllowanceVerdict = { type: 'none' } | { type: 'trusted' } | { type: 'untrusted'; reason: string };

/** Returns the source commit a cluster-branch commit names (its Gitfleet-Source-Commit trailer), if any. */
export function sourceCommitOf(message: string): string | undefined {
  return parseTrailers(message).get(sourceCommitTrailer)?.at(-1);
}

/** Returns whether the head's deletion allowance for the cluster is proven to come from the hub (see the table above). */
export function judgeDeletionAllowance(e: AllowanceEvidence): AllowanceVerdict {
  if (!deletionsAllowedBy(e.commit.message)(e.cluster)) return { type: 'none' };
  const untrusted = (reason: string): AllowanceVerdict => ({ type: 'untrusted', reason });
  for (const [role, who] of [
    ['author', e.commit.author],
    ['committer', e.commit.committer],
  ] as const) {
    if (who.name !== e.hub.name || who.email !== e.hub.email)
      return untrusted(`its ${role} is ${show(who)}, not the hub (${show(e.hub)})`);
  }
  const named = sourceCommitOf(e.commit.message);
  if (named === undefined) return untrusted(`it names no source commit (${sourceCommitTrailer})`);
  if (!e.bindingsRecordSource)
    return untrusted(`the bindings branch does not record its source commit ${named.slice(0, 12)}`);
  if (e.source === undefined) return untrusted(`its source commit ${named.slice(0, 12)} cannot be read`);
  if (!deletionsAllowedBy(e.source.message)(e.cluster))
    return untrusted(`its source commit ${named.slice(0, 12)} does not allow deletions on ${e.cluster}`);
  return { type: 'trusted' };
}

function show(s: Signature): string {
  return `${s.name} <${s.email}>`;
}
