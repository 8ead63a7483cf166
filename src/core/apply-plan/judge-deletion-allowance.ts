// Whether the agent honours a Gitfleet-Allow-Deletions trailer on its cluster branch's head.
// Anyone who can push to the cluster branch can write that trailer (and any author name), so
// the trailer alone proves nothing. The hub writes it only when the source commit it renders
// allows deletions on the cluster, or when a failover decision of the pass takes objects off the
// cluster (core/failover/eviction-allowance.ts), and records both on the bindings branch. The
// agent therefore takes the allowance only when every link of one of the two chains holds:
//
// | chain    | check                                                         | when it fails                           |
// |----------|---------------------------------------------------------------|-----------------------------------------|
// | both     | the commit's author and committer are the hub's identity      | "its author is X, not the hub (…)"      |
// | source   | it names its source commit (Gitfleet-Source-Commit)           | "names no source commit"                |
// | source   | the bindings branch records that source commit                | "the bindings branch does not record …" |
// | source   | the source commit exists and itself allows deletions here     | "the source commit … does not allow …"  |
// | eviction | a bindings commit records the head (Gitfleet-Cluster-Commit)  | "no bindings commit records it …"       |
// | eviction | that commit is the hub's                                      | "the bindings commit … is written by …" |
// | eviction | it carries Gitfleet-Eviction(-Done) naming this cluster       | "… names no eviction from <cluster>"    |
//
// The eviction chain is tried when the head itself says it evicts from this cluster (its own
// Gitfleet-Eviction / Gitfleet-Eviction-Done lines); a refusal then names the eviction link that
// failed, otherwise the source link. The bindings commit that records the head is the oldest
// whose Gitfleet-Cluster-Commit trailer names it: the commit of the pass that wrote it, whose
// trailers carry that pass's decisions (later commits name the same head and other decisions).
// Without proof the allowance is ignored and the agent's own mass-deletion guard applies.
import { deletionsAllowedBy, parseTrailers, sourceCommitTrailer } from '../publish/commit-trailers.js';
import { evictedClusterOf } from '../failover/eviction-allowance.js';

/** The trailers that name an eviction from a cluster (core/failover/failover-trailers.ts). */
export const evictionTrailers = ['Gitfleet-Eviction', 'Gitfleet-Eviction-Done'] as const;

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
  /** The bindings commit that recorded the head (the oldest whose Gitfleet-Cluster-Commit names it), when found. */
  recordedBy?: { oid: string; author: Signature; committer: Signature; message: string };
}

export type AllowanceVerdict = { type: 'none' } | { type: 'trusted' } | { type: 'untrusted'; reason: string };

/** Returns the source commit a cluster-branch commit names (its Gitfleet-Source-Commit trailer), if any. */
export function sourceCommitOf(message: string): string | undefined {
  return parseTrailers(message).get(sourceCommitTrailer)?.at(-1);
}

/** Returns the clusters a commit's Gitfleet-Eviction and Gitfleet-Eviction-Done lines evict from. */
export function evictedClustersOf(message: string): Set<string> {
  const trailers = parseTrailers(message);
  const clusters = new Set<string>();
  for (const key of evictionTrailers)
    for (const value of trailers.get(key) ?? []) {
      const cluster = evictedClusterOf(value);
      if (cluster !== undefined) clusters.add(cluster);
    }
  return clusters;
}

/** Returns whether the head's deletion allowance for the cluster is proven to come from the hub (see the table above). */
export function judgeDeletionAllowance(e: AllowanceEvidence): AllowanceVerdict {
  if (!deletionsAllowedBy(e.commit.message)(e.cluster)) return { type: 'none' };
  const notHub = notTheHub('its', e.commit, e.hub);
  if (notHub) return { type: 'untrusted', reason: notHub };
  const source = sourceLinkFailure(e);
  if (source === undefined) return { type: 'trusted' };
  if (!evictedClustersOf(e.commit.message).has(e.cluster)) return { type: 'untrusted', reason: source };
  const eviction = evictionLinkFailure(e);
  return eviction === undefined ? { type: 'trusted' } : { type: 'untrusted', reason: eviction };
}

function notTheHub(
  whose: string,
  commit: { author: Signature; committer: Signature },
  hub: Signature,
): string | undefined {
  for (const [role, who] of [
    ['author', commit.author],
    ['committer', commit.committer],
  ] as const) {
    if (who.name !== hub.name || who.email !== hub.email)
      return `${whose} ${role} is ${show(who)}, not the hub (${show(hub)})`;
  }
  return undefined;
}

function sourceLinkFailure(e: AllowanceEvidence): string | undefined {
  const named = sourceCommitOf(e.commit.message);
  if (named === undefined) return `it names no source commit (${sourceCommitTrailer})`;
  if (!e.bindingsRecordSource)
    return `the bindings branch does not record its source commit ${named.slice(0, 12)}`;
  if (e.source === undefined) return `its source commit ${named.slice(0, 12)} cannot be read`;
  if (!deletionsAllowedBy(e.source.message)(e.cluster))
    return `its source commit ${named.slice(0, 12)} does not allow deletions on ${e.cluster}`;
  return undefined;
}

function evictionLinkFailure(e: AllowanceEvidence): string | undefined {
  const by = e.recordedBy;
  if (by === undefined)
    return `no bindings commit records it (Gitfleet-Cluster-Commit: ${e.cluster}=<its id>)`;
  const short = by.oid.slice(0, 12);
  const notHub = notTheHub(`the bindings commit ${short} that records it: its`, by, e.hub);
  if (notHub) return notHub;
  if (!evictedClustersOf(by.message).has(e.cluster))
    return `the bindings commit ${short} that records it names no eviction from ${e.cluster} (${evictionTrailers.join(', ')})`;
  return undefined;
}

function show(s: Signature): string {
  return `${s.name} <${s.email}>`;
}
