// The agents' status branches as the status views read them: each branch's report (its object
// files parsed once per blob id and kept in the memo), when it was committed, and how far each
// cluster's applied commit is behind its rendered head. One branch that does not read makes that
// cluster unreadable, never the whole read.
import type { CommitDistance } from '../../core/status/fleet-status-data.js';
import { parseTrailers } from '../../core/publish/commit-trailers.js';
import {
  appliedCommitTrailer,
  assembleStatusBranch,
  isObjectStatusPath,
  parseObjectStatusFile,
  statusBranchProblem,
  type AgentReport,
  type ObjectStatusRecord,
} from '../../core/status/status-branch.js';
import { listYamlFiles, readCommit, readText, type FleetRead } from './read-fleet-objects.js';

/** The status branches read: reports of the readable ones, why the others do not read, commit times. */
export interface StatusBranchesRead {
  reports: Map<string, AgentReport>;
  unreadable: Map<string, string>;
  times: Map<string, string>;
  /** Cluster → the cluster-branch commit its status head reports on (the Gitfleet-Applied-Commit trailer), when it names one. */
  reportedOn: Map<string, string>;
}

/**
 * Returns the report of each status branch (cluster → head). The object files of a cluster in
 * `skipped` at those paths are not read: the hub's aggregated status stands for them.
 */
export function readStatusBranches(
  read: FleetRead,
  heads: ReadonlyMap<string, string>,
  skipped: ReadonlyMap<string, ReadonlySet<string>>,
): StatusBranchesRead {
  const reports = new Map<string, AgentReport>();
  const unreadable = new Map<string, string>();
  const times = new Map<string, string>();
  const reportedOn = new Map<string, string>();
  for (const [cluster, head] of heads) {
    try {
      const commit = readCommit(read, head);
      if (commit.time !== undefined) times.set(cluster, commit.time);
      const on = parseTrailers(commit.message).get(appliedCommitTrailer)?.[0];
      if (on !== undefined) reportedOn.set(cluster, on);
      const { files, objects } = readStatusFiles(read, commit.tree, skipped.get(cluster));
      const report = assembleStatusBranch(files, objects);
      if (report) reports.set(cluster, { ...report, cluster });
      else unreadable.set(cluster, statusBranchProblem(files) ?? 'no report');
    } catch (error) {
      unreadable.set(cluster, error instanceof Error ? error.message : String(error));
    }
  }
  return { reports, unreadable, times, reportedOn };
}

// The branch's object files as records (from the memo when their blob was parsed before), and
// its other files (cluster.yaml, exported slices) as texts.
function readStatusFiles(
  read: FleetRead,
  tree: string,
  skip: ReadonlySet<string> | undefined,
): {
  files: Map<string, string>;
  objects: { path: string; record: ObjectStatusRecord | undefined }[];
} {
  const files = new Map<string, string>();
  const objects: { path: string; record: ObjectStatusRecord | undefined }[] = [];
  for (const { path, oid } of listYamlFiles(read, tree)) {
    if (skip?.has(path)) continue;
    if (!isObjectStatusPath(path)) {
      files.set(path, readText(read, oid));
      continue;
    }
    let record = read.memo.records.get(oid);
    if (record === undefined) {
      record = parseObjectStatusFile(readText(read, oid)) ?? null;
      read.memo.records.set(oid, record);
    }
    objects.push({ path, record: record ?? undefined });
  }
  return { files, objects };
}

/**
 * Returns, for each reporting cluster with a cluster branch, how far its applied commit is
 * behind: first parents from the rendered head until the applied commit, at most `limit`.
 */
export function distances(
  read: FleetRead,
  reports: ReadonlyMap<string, AgentReport>,
  heads: ReadonlyMap<string, string>,
  limit: number,
): Map<string, CommitDistance> {
  const behind = new Map<string, CommitDistance>();
  for (const [cluster, report] of reports) {
    const head = heads.get(cluster);
    if (head === undefined) continue;
    behind.set(cluster, distance(read, head, report.appliedCommit, limit));
  }
  return behind;
}

function distance(read: FleetRead, head: string, applied: string | null, limit: number): CommitDistance {
  if (applied === null) return { type: 'NeverApplied' };
  let oid: string | undefined = head;
  for (let commits = 0; oid !== undefined; commits++) {
    if (oid === applied) return { type: 'Behind', commits };
    if (commits === limit) return { type: 'AtLeast', commits: limit };
    oid = parentOf(read, oid);
  }
  return { type: 'NotOnBranch' };
}

function parentOf(read: FleetRead, oid: string): string | undefined {
  try {
    return readCommit(read, oid).parents[0];
  } catch {
    return undefined;
  }
}
