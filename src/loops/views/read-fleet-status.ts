// Reads what `gitfleet status` and `gitfleet ui` show from gitfleet's branches of a local
// repository (a remote's fetched mirror included), with no checkout: the bindings branch (one
// ResourceBinding record per template, the eviction tasks, the rollouts, the monitor's verdicts
// and the refused deletions in its head's trailers), each `status/<cluster>` branch (the agent's report, and when it was
// committed), each `heartbeat/<cluster>` (when it was renewed) and the heads of the
// `clusters/<cluster>` branches, with how far each cluster's applied commit is behind. The
// templates' labels come from the source commit the bindings head names. One status branch
// that does not read makes that cluster unreadable, never the whole read.
import { listRefs } from '../../adapters/git/list-refs.js';
import { openObjectStore } from '../../adapters/git/object-store.js';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { GitfleetError } from '../../core/model/gitfleet-error.js';
import type { BindingView } from '../../core/publish/binding-record.js';
import { sourceCommitTrailer } from '../../core/publish/commit-trailers.js';
import {
  bindingsRef,
  clusterRefPrefix,
  heartbeatRefPrefix,
  statusRefPrefix,
} from '../../core/publish/hub-refs.js';
import type { FleetStatusData } from '../../core/status/fleet-status-data.js';
import { objectPath } from '../../core/format/object-path.js';
import { objectsDir, statusCommitTrailer } from '../../core/status/status-branch.js';
import { clusterCommitTrailer, parseClusterTrailers } from '../../core/publish/cluster-commit-trailers.js';
import {
  createFleetStatusMemo,
  sweepFleetStatusMemo,
  type FleetStatusMemo,
  type SourceRead,
} from './fleet-status-memo.js';
import { readBindingsHead, type BindingsHead } from './read-bindings-head.js';
import { readCommit, type FleetRead } from './read-fleet-objects.js';
import { distances, readStatusBranches, type StatusBranchesRead } from './read-status-reports.js';
import { allHeads, readAssignedHeads, type AssignedHeads } from './read-status-repositories.js';
import { readRenderedHeads, readRenderLocations, type RenderedHeads } from './read-rendered-heads.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { loadSource } from './read-source-labels.js';
import { localGitdir } from '../../adapters/remote/hub-repo.js';

export type { FleetStatusData, CommitDistance } from '../../core/status/fleet-status-data.js';

export type FleetStatusErrorCode =
  /** No bindings branch under the prefix: the hub has not run. */
  'NoBindingsBranch';

/** The fleet's status cannot be read at all (one cluster's bad status branch is data, not this). */
export class FleetStatusError extends GitfleetError<FleetStatusErrorCode> {
  constructor(code: FleetStatusErrorCode, message: string, subject?: string) {
    super(message, { code, terminal: true, ...(subject !== undefined ? { subject } : {}) });
  }
}

export interface ReadFleetStatusOptions {
  /** A local repository: a work tree, a bare repository or a remote's mirror (its git directory). */
  dir: string;
  /** How to name the repository in messages and in the data (default: `dir`). */
  repo?: string;
  /** Overrides the FleetConfig's branchPrefix (default: the FleetConfig at HEAD, else `gitfleet/`). */
  branchPrefix?: string;
  /** How many commits of a cluster branch to walk when counting how far behind it is (default 50). */
  behindLimit?: number;
  /**
   * `always` (default): every status branch is read whole. `fresh`: a cluster whose status branch and cluster branch are still the ones the
   * bindings head records (its Gitfleet-Status-Commit and Gitfleet-Cluster-Commit trailers)
   * has the records of the bindings placed there taken from the status the hub aggregated into
   * the binding records, and only its other files read (see `aggregatedByHub`): far fewer
   * reads on a big fleet, but the reports then lack those records (and their reflected status
   * fields), so views must take the statuses from templateStatusItems (core/status/fleet-summary.ts)
   * or fleetStatusTable (core/status/status-table.ts), not from the reports' objects.
   */
  objects?: 'fresh' | 'always';
  /**
   * Whether to load the source commit for the templates' labels (default true). Loading a
   * fleet of thousands of templates is most of a read; `status` without `-l` skips it.
   */
  templateLabels?: boolean;
  /**
   * What earlier reads of the same repository kept (createFleetStatusMemo), for a caller that
   * reads again when a ref moves (the dashboard, `status --watch`); swept at the end of the read.
   * Without one, nothing outlives the read.
   */
  memo?: FleetStatusMemo;
  /**
   * Returns the up-to-date git directory of a status repository the FleetConfig at HEAD assigns
   * (read-status-repositories.ts); default: a local path in place, and a URL is unreadable.
   */
  openStatusRepository?: (url: string) => Promise<string>;
  /**
   * The same for a render repository the bindings branch records a cluster branch in
   * (read-rendered-heads.ts); default: openStatusRepository's.
   */
  openRenderRepository?: (url: string) => Promise<string>;
}

/** The default bound of the walk that counts how far a cluster is behind. */
export const defaultBehindLimit = 50;

/** Returns everything the status views need; throws FleetStatusError NoBindingsBranch when the hub has not run. */
export async function readFleetStatus(opts: ReadFleetStatusOptions): Promise<FleetStatusData> {
  const memo = opts.memo ?? createFleetStatusMemo();
  try {
    return await readWith(opts, memo);
  } finally {
    sweepFleetStatusMemo(memo);
  }
}

async function readWith(opts: ReadFleetStatusOptions, memo: FleetStatusMemo): Promise<FleetStatusData> {
  const gitdir = localGitdir(opts.dir);
  const repo = opts.repo ?? opts.dir;
  const read: FleetRead = { store: openObjectStore(gitdir), memo };
  const atHead =
    opts.branchPrefix === undefined
      ? await loadSource(gitdir, 'HEAD', { labels: opts.templateLabels !== false }, memo)
      : undefined;
  const branchPrefix = opts.branchPrefix ?? atHead?.branchPrefix ?? defaultBranchPrefix;
  const refs = await listRefs(gitdir, `refs/heads/${branchPrefix}`);
  const bindingsHead = refs.get(bindingsRef(branchPrefix));
  if (bindingsHead === undefined)
    throw new FleetStatusError(
      'NoBindingsBranch',
      `no branch ${branchPrefix}bindings in ${repo}: has the hub run?`,
      repo,
    );
  const head = readBindingsHead(read, bindingsHead);
  const where = { opts, read, gitdir, branchPrefix, refs, atHead };
  const { rendered, assigned } = await readClusterHeads(where, head);
  const status = readClusterStatus(opts, head, { rendered, assigned });
  const labels = await readTemplateLabels(where, head);
  return {
    repo,
    branchPrefix,
    ...head.data,
    reports: status.reports,
    aggregatedByHub: status.aggregatedByHub,
    unreadable: status.unreadable,
    reportTimes: status.times,
    reportedOn: status.reportedOn,
    heartbeatTimes: heartbeatTimesOf(assigned.heartbeats),
    renderedHeads: rendered.heads,
    ...(rendered.readIn.size > 0 ? { renderedIn: rendered.readIn } : {}),
    behind: distances(read, status.reports, rendered.heads, opts.behindLimit ?? defaultBehindLimit),
    templateLabels: labels.labels ?? new Map(),
    ...(labels.error !== undefined ? { templateLabelsError: labels.error } : {}),
    ...(labels.clusters ? { registrations: new Map(labels.clusters.map((c) => [c.name, c])) } : {}),
    ...(labels.rolledOutBy ? { rolledOutBy: labels.rolledOutBy } : {}),
  };
}

/** Where a read of the fleet's status is: the repository, the prefix and its refs, the source at HEAD. */
interface ReadPlace {
  opts: ReadFleetStatusOptions;
  read: FleetRead;
  gitdir: string;
  branchPrefix: string;
  refs: ReadonlyMap<string, string>;
  /** The source commit at HEAD, when the prefix was not given (a mirror has no HEAD: no commit). */
  atHead: SourceRead | undefined;
}

/**
 * Returns where each cluster's branch, status and heartbeat heads are (the fleet repository, a
 * status repository or a render repository); the render repositories' commits are read where
 * they are from then on (how far behind a cluster is).
 */
async function readClusterHeads(
  where: ReadPlace,
  head: BindingsHead,
): Promise<{ rendered: RenderedHeads; assigned: AssignedHeads }> {
  const { opts, read, gitdir, branchPrefix, refs, atHead } = where;
  const rendered = await readRenderedHeads({
    branchPrefix,
    fleetHeads: refsUnder(refs, clusterRefPrefix(branchPrefix)),
    locations: readRenderLocations(read, head.commit.tree),
    open: opts.openRenderRepository ?? opts.openStatusRepository ?? openLocalStatusRepository,
  });
  read.store = { ...read.store, also: rendered.gitdirs };
  const assigned = await readAssignedHeads({
    read,
    branchPrefix,
    // The FleetConfig at HEAD; a mirror has no HEAD: then the source commit the hub rendered last.
    assignment:
      atHead?.statusAssignment ??
      (atHead?.commit === undefined && head.sourceCommit !== undefined
        ? (await loadSource(gitdir, head.sourceCommit, { labels: false }, read.memo)).statusAssignment
        : undefined),
    open: opts.openStatusRepository ?? openLocalStatusRepository,
    statusHeads: refsUnder(refs, statusRefPrefix(branchPrefix)),
    heartbeatHeads: refsUnder(refs, heartbeatRefPrefix(branchPrefix)),
  });
  return { rendered, assigned };
}

/**
 * Returns every cluster's report, or why it does not read; with `objects: 'fresh'`, a cluster
 * still as the bindings head records it has the records of the bindings placed there left
 * unread (aggregatedByHub).
 */
function readClusterStatus(
  opts: ReadFleetStatusOptions,
  head: BindingsHead,
  heads: { rendered: RenderedHeads; assigned: AssignedHeads },
): StatusBranchesRead & { aggregatedByHub: Set<string> } {
  const { rendered, assigned } = heads;
  const aggregatedByHub =
    opts.objects === 'fresh'
      ? freshClusters(head.trailers, allHeads(assigned.status), rendered.heads)
      : new Set<string>();
  const skipped = placedPaths(head.data.bindings, aggregatedByHub);
  const status = mergeStatus(assigned.status.map((g) => readStatusBranches(g.read, g.heads, skipped)));
  for (const [cluster, why] of [...assigned.unreadable, ...rendered.unreadable])
    status.unreadable.set(cluster, why);
  for (const cluster of status.unreadable.keys()) aggregatedByHub.delete(cluster);
  return { ...status, aggregatedByHub };
}

/** Returns the templates' labels from the source commit the bindings head names, or why there are none. */
async function readTemplateLabels(where: ReadPlace, head: BindingsHead): Promise<SourceRead> {
  const { opts, atHead, gitdir, read } = where;
  if (opts.templateLabels === false) return { error: "the templates' labels were not asked for" };
  if (head.sourceCommit === undefined)
    return {
      error: `${head.data.bindingsHead.slice(0, 7)}: the bindings head does not name its source commit (${sourceCommitTrailer})`,
    };
  if (atHead?.commit === head.sourceCommit) return atHead;
  return loadSource(gitdir, head.sourceCommit, { labels: true }, read.memo);
}

/** Each cluster's last heartbeat time, from the heads of its heartbeat branch. */
function heartbeatTimesOf(
  groups: readonly { read: FleetRead; heads: ReadonlyMap<string, string> }[],
): Map<string, string> {
  const times = new Map<string, string>();
  for (const group of groups)
    for (const [cluster, oid] of group.heads) {
      const time = commitTime(group.read, oid);
      if (time !== undefined) times.set(cluster, time);
    }
  return times;
}

function openLocalStatusRepository(url: string): Promise<string> {
  if (isRepoUrl(url))
    return Promise.reject(new Error('a URL is read through a mirror, and this reader has none'));
  return Promise.resolve(localGitdir(url));
}

function mergeStatus(reads: readonly StatusBranchesRead[]): StatusBranchesRead {
  const merged: StatusBranchesRead = {
    reports: new Map(),
    unreadable: new Map(),
    times: new Map(),
    reportedOn: new Map(),
  };
  for (const r of reads) {
    for (const [c, v] of r.reports) merged.reports.set(c, v);
    for (const [c, v] of r.unreadable) merged.unreadable.set(c, v);
    for (const [c, v] of r.times) merged.times.set(c, v);
    for (const [c, v] of r.reportedOn) merged.reportedOn.set(c, v);
  }
  return merged;
}

function commitTime(read: FleetRead, oid: string): string | undefined {
  try {
    return readCommit(read, oid).time;
  } catch {
    return undefined;
  }
}

/**
 * Returns the clusters whose status branch and cluster branch are still the ones the bindings
 * head records (its Gitfleet-Status-Commit and Gitfleet-Cluster-Commit trailers).
 */
function freshClusters(
  trailers: ReadonlyMap<string, readonly string[]>,
  statusHeads: ReadonlyMap<string, string>,
  renderedHeads: ReadonlyMap<string, string>,
): Set<string> {
  const recordedStatus = parseClusterTrailers(trailers.get(statusCommitTrailer) ?? []);
  const recordedClusters = parseClusterTrailers(trailers.get(clusterCommitTrailer) ?? []);
  const fresh = new Set<string>();
  for (const [cluster, head] of statusHeads)
    if (
      recordedStatus.get(cluster) === head &&
      renderedHeads.has(cluster) &&
      recordedClusters.get(cluster) === renderedHeads.get(cluster)
    )
      fresh.add(cluster);
  return fresh;
}

/**
 * Returns, for each of the clusters, the status-branch paths of the objects of the bindings
 * placed there: the records the hub's aggregation stands for.
 */
function placedPaths(
  bindings: readonly BindingView[],
  clusters: ReadonlySet<string>,
): Map<string, Set<string>> {
  const paths = new Map<string, Set<string>>([...clusters].map((c) => [c, new Set<string>()]));
  for (const b of bindings) {
    const path = objectsDir + objectPath(b.resource);
    for (const { name } of b.clusters) paths.get(name)?.add(path);
  }
  return paths;
}

/** Returns cluster → head for the refs directly under a prefix, by cluster name. */
function refsUnder(refs: ReadonlyMap<string, string>, prefix: string): Map<string, string> {
  return new Map(
    [...refs]
      .filter(([ref]) => ref.startsWith(prefix) && !ref.slice(prefix.length).includes('/'))
      .map(([ref, oid]): [string, string] => [ref.slice(prefix.length), oid])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
