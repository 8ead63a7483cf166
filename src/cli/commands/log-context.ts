// What `gitfleet log` adds to each entry as it streams: the source commit it came from (read
// once per source, with its author and subject; one that is gone is reported as missing, not as
// an error), and why, when a failover or rollout decision made it: the entry's own decision
// trailers and those of the bindings commit that recorded it (the oldest whose
// Gitfleet-Cluster-Commit names it). The bindings branch is walked back alongside the entries,
// only as far as the oldest entry shown; following an object, only the decisions about it and
// its clusters are kept (decisionsAbout).
import { clusterCommitTrailer, parseClusterTrailers } from '../../core/publish/cluster-commit-trailers.js';
import { parseTrailers } from '../../core/publish/commit-trailers.js';
import { decisionLinesOf, decisionsAbout } from '../../core/review/decision-lines.js';
import type { LogEntry, LogSource } from '../../core/review/log-entry.js';
import type { ObjectSpec } from '../../core/review/parse-object-spec.js';
import { branchHead, NoSuchCommit, readLogCommit, type LogCommit, type LogRepo } from './log-objects.js';

/** Returns a function completing each entry (newest first) with its source and its decisions. */
export function entryContext(
  repo: LogRepo,
  opts: { bindingsBranch: string; object?: ObjectSpec | undefined },
): (entry: LogEntry) => LogEntry {
  const sourceOf = sourceReader(repo);
  const recordedFor = bindingsDecisions(repo, opts.bindingsBranch);
  return (entry) => {
    const source =
      entry.source === null
        ? null
        : {
            ...sourceOf(entry.source.commit),
            ...(entry.source.ref !== undefined ? { ref: entry.source.ref } : {}),
          };
    const all = [...new Set([...(entry.decisions ?? []), ...recordedFor(entry)])];
    const decisions = opts.object
      ? decisionsAbout(all, { object: opts.object, cluster: entry.cluster })
      : all;
    const { decisions: _own, ...rest } = entry;
    return { ...rest, source, ...(decisions.length > 0 ? { decisions } : {}) };
  };
}

/** Returns the reader of source commits, each read once. */
function sourceReader(repo: LogRepo): (oid: string) => LogSource {
  const read = new Map<string, LogSource>();
  return (oid) => {
    let source = read.get(oid);
    if (source === undefined) read.set(oid, (source = readSourceCommit(repo, oid)));
    return source;
  };
}

function readSourceCommit(repo: LogRepo, oid: string): LogSource {
  try {
    const commit = readLogCommit(repo, oid);
    const author = { name: commit.author.name, email: commit.author.email, time: commit.author.timestamp };
    return { commit: oid, missing: false, author, subject: commit.message.split('\n', 1)[0]!.trim() };
  } catch (error) {
    if (error instanceof NoSuchCommit) return { commit: oid, missing: true };
    throw error;
  }
}

/**
 * Returns the decisions of the bindings commit that recorded an entry's cluster commit. Entries
 * come newest first: the branch is read back until its commits are older than the entry, so
 * every commit that may name it has been seen; newest first, an older commit naming the same
 * cluster commit overwrites, so the oldest wins.
 */
function bindingsDecisions(repo: LogRepo, branch: string): (entry: LogEntry) => string[] {
  let oid = branchHead(repo, branch);
  let next: LogCommit | undefined = oid === undefined ? undefined : readLogCommit(repo, oid);
  const recorded = new Map<string, string[]>();
  return (entry) => {
    while (next !== undefined && next.committer.timestamp >= entry.time) {
      const lines = decisionLinesOf(next.message);
      const heads = parseTrailers(next.message).get(clusterCommitTrailer) ?? [];
      for (const [cluster, head] of parseClusterTrailers(heads)) recorded.set(`${cluster}=${head}`, lines);
      oid = next.parents[0];
      next = oid === undefined ? undefined : readLogCommit(repo, oid);
    }
    return recorded.get(`${entry.cluster}=${entry.commit}`) ?? [];
  };
}
