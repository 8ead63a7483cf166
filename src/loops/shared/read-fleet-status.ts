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
import { refLabel } from '../../core/model/object-ref.js';
import { parseBindingView, type BindingView } from '../../core/publish/binding-record.js';
import { parseTrailers, sourceCommitTrailer, sourceRefTrailer } from '../../core/publish/commit-trailers.js';
import {
  bindingsRef,
  clusterRefPrefix,
  heartbeatRefPrefix,
  statusRefPrefix,
} from '../../core/publish/hub-refs.js';
import { clusterJudgedTrailer } from '../../core/failover/failover-trailers.js';
import { clusterTaintsDir, readRecord } from '../../core/failover/cluster-taints.js';
import type { TimedTaint } from '../../core/model/failover.js';
import { deletionRefusedTrailer, parseRefusalTrailers } from '../../core/publish/refusal-trailers.js';
import { rolloutViewsOf } from '../../core/rollout/rollout-view.js';
import { rolloutDir } from '../../core/rollout/rollout-record.js';
import { parseQuotaStatusRecord, quotaStatusDir } from '../../core/quota/quota-status.js';
import { evictionTasksOfRecord } from '../../core/status/eviction-task-view.js';
import type { FleetStatusData, TemplateEvictionTask } from '../../core/status/fleet-status-data.js';
import { objectPath } from '../../core/format/object-path.js';
import { objectsDir, statusCommitTrailer } from '../../core/status/status-branch.js';
import { clusterCommitTrailer, parseClusterTrailers } from '../../core/publish/cluster-commit-trailers.js';
import {
  createFleetStatusMemo,
  sweepFleetStatusMemo,
  type BindingFile,
  type FleetStatusMemo,
} from './fleet-status-memo.js';
import { listYamlFiles, readCommit, readText, type FleetRead } from './read-fleet-objects.js';
import { distances, readStatusBranches, type StatusBranchesRead } from './read-status-reports.js';
import { allHeads, readAssignedHeads } from './read-status-repositories.js';
import { readRenderedHeads, readRenderLocations } from './read-rendered-heads.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { loadSource } from './read-source-labels.js';
import { localGitdir } from './hub-repo.js';

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
  const wantLabels = opts.templateLabels !== false;
  const atHead =
    opts.branchPrefix === undefined
      ? await loadSource(gitdir, 'HEAD', { labels: wantLabels }, memo)
      : undefined;
  const branchPrefix = opts.branchPrefix ?? atHead?.branchPrefix ?? defaultBranchPrefix;
  const refs = await listRefs(gitdir, `refs/heads/${branchPrefix}`);
  const { bindingsHead, bindingsCommit, trailers, sourceCommit, bindingsBranch, bindings } = readBindingsHead(
    read,
    refs.get(bindingsRef(branchPrefix)),
    `no branch ${branchPrefix}bindings in ${repo}: has the hub run?`,
    repo,
  );
  const rendered = await readRenderedHeads({
    branchPrefix,
    fleetHeads: refsUnder(refs, clusterRefPrefix(branchPrefix)),
    locations: readRenderLocations(read, bindingsCommit.tree),
    open: opts.openRenderRepository ?? opts.openStatusRepository ?? openLocalStatusRepository,
  });
  const renderedHeads = rendered.heads;
  // The render repositories' commits are read where they are (how far behind a cluster is).
  read.store = { ...read.store, also: rendered.gitdirs };
  const assigned = await readAssignedHeads({
    read,
    branchPrefix,
    // The FleetConfig at HEAD; a mirror has no HEAD: then the source commit the hub rendered last.
    assignment:
      atHead?.statusAssignment ??
      (atHead?.commit === undefined && sourceCommit !== undefined
        ? (await loadSource(gitdir, sourceCommit, { labels: false }, memo)).statusAssignment
        : undefined),
    open: opts.openStatusRepository ?? openLocalStatusRepository,
    statusHeads: refsUnder(refs, statusRefPrefix(branchPrefix)),
    heartbeatHeads: refsUnder(refs, heartbeatRefPrefix(branchPrefix)),
  });
  const statusHeads = allHeads(assigned.status);
  const aggregatedByHub =
    opts.objects === 'fresh' ? freshClusters(trailers, statusHeads, renderedHeads) : new Set<string>();
  const skipped = placedPaths(bindings, aggregatedByHub);
  const status = mergeStatus(assigned.status.map((g) => readStatusBranches(g.read, g.heads, skipped)));
  for (const [cluster, why] of [...assigned.unreadable, ...rendered.unreadable])
    status.unreadable.set(cluster, why);
  for (const cluster of status.unreadable.keys()) aggregatedByHub.delete(cluster);
  const heartbeatTimes = heartbeatTimesOf(assigned.heartbeats);
  const labels =
    opts.templateLabels === false
      ? { error: "the templates' labels were not asked for" }
      : sourceCommit === undefined
        ? {
            error: `${bindingsHead.slice(0, 7)}: the bindings head does not name its source commit (${sourceCommitTrailer})`,
          }
        : atHead?.commit === sourceCommit
          ? atHead
          : await loadSource(gitdir, sourceCommit, { labels: true }, memo);
  return {
    repo,
    branchPrefix,
    bindingsHead,
    ...(bindingsCommit.time !== undefined ? { bindingsTime: bindingsCommit.time } : {}),
    ...(sourceCommit !== undefined ? { sourceCommit } : {}),
    ...sourceNames(bindingsCommit.message, trailers.get(sourceRefTrailer)?.[0]),
    bindings,
    reports: status.reports,
    aggregatedByHub,
    unreadable: status.unreadable,
    reportTimes: status.times,
    reportedOn: status.reportedOn,
    heartbeatTimes,
    renderedHeads,
    ...(rendered.readIn.size > 0 ? { renderedIn: rendered.readIn } : {}),
    behind: distances(read, status.reports, renderedHeads, opts.behindLimit ?? defaultBehindLimit),
    judged: judgedOf(trailers.get(clusterJudgedTrailer) ?? []),
    templateLabels: labels.labels ?? new Map(),
    ...(labels.error !== undefined ? { templateLabelsError: labels.error } : {}),
    evictions: evictionsOf(bindingsBranch.files),
    rollouts: rolloutViewsOf(bindingsBranch.rolloutTexts),
    hubRefusals: parseRefusalTrailers(trailers.get(deletionRefusedTrailer) ?? []),
    keptTaints: keptTaintsOf(bindingsBranch.taintTexts),
    quotas: [...bindingsBranch.quotaTexts.values()].flatMap((t) => parseQuotaStatusRecord(t) ?? []),
    ...(labels.clusters ? { registrations: new Map(labels.clusters.map((c) => [c.name, c])) } : {}),
    ...(labels.rolledOutBy ? { rolledOutBy: labels.rolledOutBy } : {}),
  };
}

/** The bindings branch's head, its commit, trailers and records; throws NoBindingsBranch when there is none. */
function readBindingsHead(read: FleetRead, bindingsHead: string | undefined, missing: string, repo: string) {
  if (bindingsHead === undefined) throw new FleetStatusError('NoBindingsBranch', missing, repo);
  const bindingsCommit = readCommit(read, bindingsHead);
  const trailers = parseTrailers(bindingsCommit.message);
  const sourceCommit = trailers.get(sourceCommitTrailer)?.[0];
  const bindingsBranch = readBindingsTree(read, bindingsCommit.tree);
  const bindings = bindingsBranch.files.map((f) => f.view).filter((b): b is BindingView => b !== undefined);
  return { bindingsHead, bindingsCommit, trailers, sourceCommit, bindingsBranch, bindings };
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

/** Returns each cluster's kept taints from the records `.gitfleet/failover/clusters/<cluster>.yaml`. */
function keptTaintsOf(texts: ReadonlyMap<string, string>): Map<string, TimedTaint[]> {
  const kept = new Map<string, TimedTaint[]>();
  for (const [path, text] of texts) {
    const taints = readRecord(text);
    if (taints.length > 0) kept.set(path.slice(clusterTaintsDir.length, -'.yaml'.length), taints);
  }
  return kept;
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
 * Returns what each `.yaml` file of the bindings branch holds (parsed once per blob id), in
 * tree order, and the texts of the rollout records and of the clusters' kept taints.
 */
function readBindingsTree(
  read: FleetRead,
  tree: string,
): {
  files: BindingFile[];
  rolloutTexts: Map<string, string>;
  taintTexts: Map<string, string>;
  quotaTexts: Map<string, string>;
} {
  const files: BindingFile[] = [];
  const rolloutTexts = new Map<string, string>();
  const taintTexts = new Map<string, string>();
  const quotaTexts = new Map<string, string>();
  for (const { path, oid } of listYamlFiles(read, tree)) {
    let file = read.memo.bindings.get(oid);
    const kept = path.startsWith(rolloutDir)
      ? rolloutTexts
      : path.startsWith(clusterTaintsDir)
        ? taintTexts
        : path.startsWith(quotaStatusDir)
          ? quotaTexts
          : undefined;
    if (file === undefined || kept) {
      const text = readText(read, oid);
      kept?.set(path, text);
      file ??= bindingFileOf(text);
      read.memo.bindings.set(oid, file);
    }
    files.push(file);
  }
  return { files, rolloutTexts, taintTexts, quotaTexts };
}

function bindingFileOf(text: string): BindingFile {
  const view = parseBindingView(text);
  const evictions = view && text.includes('gracefulEvictionTasks') ? evictionTasksOfRecord(text) : [];
  return { view, evictions };
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

/** Returns `member2=Unknown` trailer values as cluster → verdict. */
function judgedOf(values: readonly string[]): Map<string, string> {
  const judged = new Map<string, string>();
  for (const value of values) {
    const at = value.indexOf('=');
    if (at > 0) judged.set(value.slice(0, at).trim(), value.slice(at + 1).trim());
  }
  return judged;
}

function evictionsOf(files: readonly BindingFile[]): TemplateEvictionTask[] {
  const evictions: TemplateEvictionTask[] = [];
  for (const { view, evictions: tasks } of files) {
    if (!view) continue;
    for (const task of tasks) evictions.push({ template: refLabel(view.resource), ...task });
  }
  return evictions.sort((a, b) => (a.template < b.template ? -1 : a.template > b.template ? 1 : 0));
}

/**
 * The source commit's ref and subject as the bindings head names them: its Gitfleet-Source-Ref
 * trailer and its subject, `render <sha7>: <source subject>` (a mirror holds no source branch to
 * read them from).
 */
function sourceNames(
  message: string,
  ref: string | undefined,
): { sourceRef?: string; sourceSubject?: string } {
  const subject = /^render [0-9a-f]{7,}: (.*)$/.exec(message.split('\n', 1)[0]!)?.[1];
  return {
    ...(ref !== undefined ? { sourceRef: ref } : {}),
    ...(subject !== undefined ? { sourceSubject: subject } : {}),
  };
}
