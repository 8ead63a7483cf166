// Reads what `gitfleet status` and `gitfleet ui` show from gitfleet's branches of a local
// repository (a remote's fetched mirror included), with no checkout: the bindings branch (one
// ResourceBinding record per template, the eviction tasks, the rollouts, the monitor's verdicts
// in its head's trailers), each `status/<cluster>` branch (the agent's report, and when it was
// committed), each `heartbeat/<cluster>` (when it was renewed) and the heads of the
// `clusters/<cluster>` branches, with how far each cluster's applied commit is behind. The
// templates' labels come from the source commit the bindings head names. One status branch
// that does not read makes that cluster unreadable, never the whole read.
import { readGitSource } from '../../adapters/source/read-git-commit.js';
import { listRefs } from '../../adapters/git/list-refs.js';
import { openObjectStore, readStoredObject, type ObjectStore } from '../../adapters/git/object-store.js';
import { parseCommit } from '../../adapters/git/parse-commit.js';
import { parseTree, treeMode } from '../../adapters/git/tree-object.js';
import { loadFleet } from '../../core/load/load-fleet.js';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { GitfleetError } from '../../core/model/gitfleet-error.js';
import { refLabel } from '../../core/model/object-ref.js';
import { parseBindingView, type BindingView } from '../../core/publish/binding-record.js';
import { parseTrailers, sourceCommitTrailer } from '../../core/publish/commit-trailers.js';
import {
  bindingsRef,
  clusterRefPrefix,
  heartbeatRefPrefix,
  statusRefPrefix,
} from '../../core/publish/hub-refs.js';
import { clusterJudgedTrailer } from '../../core/failover/failover-trailers.js';
import { rolloutViewsOf } from '../../core/rollout/rollout-view.js';
import { evictionTasksOfRecord } from '../../core/status/eviction-task-view.js';
import type {
  CommitDistance,
  FleetStatusData,
  TemplateEvictionTask,
} from '../../core/status/fleet-status-data.js';
import { objectPath } from '../../core/format/object-path.js';
import {
  objectsDir,
  parseStatusBranch,
  statusCommitTrailer,
  statusBranchProblem,
  type AgentReport,
} from '../../core/status/status-branch.js';
import { clusterCommitTrailer, parseClusterTrailers } from '../../core/publish/cluster-commit-trailers.js';
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
}

/** The default bound of the walk that counts how far a cluster is behind. */
export const defaultBehindLimit = 50;

/** Returns everything the status views need; throws FleetStatusError NoBindingsBranch when the hub has not run. */
export async function readFleetStatus(opts: ReadFleetStatusOptions): Promise<FleetStatusData> {
  const gitdir = localGitdir(opts.dir);
  const repo = opts.repo ?? opts.dir;
  const store = openObjectStore(gitdir);
  const reader = blobReader(store);
  const wantLabels = opts.templateLabels !== false;
  const atHead =
    opts.branchPrefix === undefined ? await loadSource(gitdir, 'HEAD', { labels: wantLabels }) : undefined;
  const branchPrefix = opts.branchPrefix ?? atHead?.branchPrefix ?? defaultBranchPrefix;
  const refs = await listRefs(gitdir, `refs/heads/${branchPrefix}`);
  const bindingsHead = refs.get(bindingsRef(branchPrefix));
  if (bindingsHead === undefined)
    throw new FleetStatusError(
      'NoBindingsBranch',
      `no branch ${branchPrefix}bindings in ${repo}: has the hub run?`,
      repo,
    );
  const bindingsCommit = await readCommit(store, bindingsHead);
  const trailers = parseTrailers(bindingsCommit.message);
  const sourceCommit = trailers.get(sourceCommitTrailer)?.[0];
  const bindingsFiles = await readYamlFiles(store, reader, bindingsCommit.tree);
  const bindings = [...bindingsFiles.values()]
    .map(parseBindingView)
    .filter((b): b is BindingView => b !== undefined);
  const renderedHeads = refsUnder(refs, clusterRefPrefix(branchPrefix));
  const recordedStatus = parseClusterTrailers(trailers.get(statusCommitTrailer) ?? []);
  const recordedClusters = parseClusterTrailers(trailers.get(clusterCommitTrailer) ?? []);
  const aggregatedByHub = new Set<string>();
  const statusHeads = refsUnder(refs, statusRefPrefix(branchPrefix));
  for (const [cluster, head] of statusHeads)
    if (
      opts.objects === 'fresh' &&
      recordedStatus.get(cluster) === head &&
      renderedHeads.has(cluster) &&
      recordedClusters.get(cluster) === renderedHeads.get(cluster)
    )
      aggregatedByHub.add(cluster);
  const status = await readStatusBranches(store, reader, statusHeads, placedPaths(bindings, aggregatedByHub));
  for (const cluster of status.unreadable.keys()) aggregatedByHub.delete(cluster);
  const heartbeatTimes = new Map<string, string>();
  for (const [cluster, oid] of refsUnder(refs, heartbeatRefPrefix(branchPrefix))) {
    const time = await readCommit(store, oid).then(
      (c) => c.time,
      () => undefined,
    );
    if (time !== undefined) heartbeatTimes.set(cluster, time);
  }
  const labels =
    opts.templateLabels === false
      ? { error: "the templates' labels were not asked for" }
      : sourceCommit === undefined
        ? {
            error: `${bindingsHead.slice(0, 7)}: the bindings head does not name its source commit (${sourceCommitTrailer})`,
          }
        : atHead?.commit === sourceCommit
          ? atHead
          : await loadSource(gitdir, sourceCommit, { labels: true });
  return {
    repo,
    branchPrefix,
    bindingsHead,
    ...(bindingsCommit.time !== undefined ? { bindingsTime: bindingsCommit.time } : {}),
    ...(sourceCommit !== undefined ? { sourceCommit } : {}),
    bindings,
    reports: status.reports,
    aggregatedByHub,
    unreadable: status.unreadable,
    reportTimes: status.times,
    heartbeatTimes,
    renderedHeads,
    behind: await distances(store, status.reports, renderedHeads, opts.behindLimit ?? defaultBehindLimit),
    judged: judgedOf(trailers.get(clusterJudgedTrailer) ?? []),
    templateLabels: labels.labels ?? new Map(),
    ...(labels.error !== undefined ? { templateLabelsError: labels.error } : {}),
    evictions: evictionsOf(bindingsFiles),
    rollouts: rolloutViewsOf(bindingsFiles),
  };
}

interface CommitRead {
  tree: string;
  parents: string[];
  message: string;
  /** The committer time, RFC 3339 in UTC. */
  time?: string;
}

async function readCommit(store: ObjectStore, oid: string): Promise<CommitRead> {
  const object = await readStoredObject(store, oid);
  if (object.type !== 'commit') throw new Error(`${oid}: a ${object.type}, not a commit`);
  const text = Buffer.from(object.content).toString('utf8');
  const parsed = parseCommit(text);
  if (!parsed.tree) throw new Error(`${oid}: a commit without a tree`);
  const time = committerTime(text);
  return {
    tree: parsed.tree,
    parents: parsed.parents,
    message: parsed.message,
    ...(time !== undefined ? { time } : {}),
  };
}

// `committer Name <email> 1700000000 +0000` in the header: the seconds are UTC whatever the zone.
function committerTime(text: string): string | undefined {
  const header = text.slice(0, Math.max(0, text.indexOf('\n\n')));
  const m = /^committer .* (\d+) [+-]\d{4}$/m.exec(header);
  return m ? new Date(Number(m[1]) * 1000).toISOString() : undefined;
}

// Blob texts by id, read once per read: the status branches of a healthy fleet share most of
// their files (the same object, applied and Healthy, on many clusters).
function blobReader(store: ObjectStore): (oid: string) => Promise<string> {
  const texts = new Map<string, Promise<string>>();
  const decoder = new TextDecoder();
  return (oid) => {
    let text = texts.get(oid);
    if (!text) {
      text = readStoredObject(store, oid).then((o) => decoder.decode(o.content));
      texts.set(oid, text);
    }
    return text;
  };
}

/** Returns every `.yaml` file under a tree, path → text. */
async function readYamlFiles(
  store: ObjectStore,
  read: (oid: string) => Promise<string>,
  tree: string,
  skip?: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const listed: { path: string; oid: string }[] = [];
  await listBlobs(store, tree, '', listed);
  const blobs = skip ? listed.filter((b) => !skip.has(b.path)) : listed;
  const files = new Map<string, string>();
  for (let i = 0; i < blobs.length; i += 256) {
    const batch = blobs.slice(i, i + 256);
    const texts = await Promise.all(batch.map((b) => read(b.oid)));
    batch.forEach((b, j) => files.set(b.path, texts[j]!));
  }
  return files;
}

async function listBlobs(
  store: ObjectStore,
  tree: string,
  base: string,
  out: { path: string; oid: string }[],
): Promise<void> {
  const object = await readStoredObject(store, tree);
  if (object.type !== 'tree') throw new Error(`${tree}: a ${object.type}, not a tree`);
  const subtrees: Promise<void>[] = [];
  for (const entry of parseTree(object.content, tree)) {
    const path = base + entry.name;
    if (entry.mode === treeMode) subtrees.push(listBlobs(store, entry.oid, `${path}/`, out));
    else if (entry.mode !== '160000' && path.endsWith('.yaml')) out.push({ path, oid: entry.oid });
  }
  await Promise.all(subtrees);
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

// The object files of a cluster in `skipped` at those paths are not read: the hub's aggregated
// status stands for them.
async function readStatusBranches(
  store: ObjectStore,
  read: (oid: string) => Promise<string>,
  heads: ReadonlyMap<string, string>,
  skipped: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<{
  reports: Map<string, AgentReport>;
  unreadable: Map<string, string>;
  times: Map<string, string>;
}> {
  const reports = new Map<string, AgentReport>();
  const unreadable = new Map<string, string>();
  const times = new Map<string, string>();
  for (const [cluster, head] of heads) {
    try {
      const commit = await readCommit(store, head);
      if (commit.time !== undefined) times.set(cluster, commit.time);
      const files = await readYamlFiles(store, read, commit.tree, skipped.get(cluster));
      const report = parseStatusBranch(files);
      if (report) reports.set(cluster, { ...report, cluster });
      else unreadable.set(cluster, statusBranchProblem(files) ?? 'no report');
    } catch (error) {
      unreadable.set(cluster, error instanceof Error ? error.message : String(error));
    }
  }
  return { reports, unreadable, times };
}

// For each reporting cluster with a cluster branch: walk first parents from the rendered head
// until the applied commit, at most `limit` commits.
async function distances(
  store: ObjectStore,
  reports: ReadonlyMap<string, AgentReport>,
  heads: ReadonlyMap<string, string>,
  limit: number,
): Promise<Map<string, CommitDistance>> {
  const behind = new Map<string, CommitDistance>();
  for (const [cluster, report] of reports) {
    const head = heads.get(cluster);
    if (head === undefined) continue;
    behind.set(cluster, await distance(store, head, report.appliedCommit, limit));
  }
  return behind;
}

async function distance(
  store: ObjectStore,
  head: string,
  applied: string | null,
  limit: number,
): Promise<CommitDistance> {
  if (applied === null) return { type: 'NeverApplied' };
  let oid: string | undefined = head;
  for (let commits = 0; oid !== undefined; commits++) {
    if (oid === applied) return { type: 'Behind', commits };
    if (commits === limit) return { type: 'AtLeast', commits: limit };
    oid = (await readCommit(store, oid).catch(() => undefined))?.parents[0];
  }
  return { type: 'NotOnBranch' };
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

function evictionsOf(files: ReadonlyMap<string, string>): TemplateEvictionTask[] {
  const evictions: TemplateEvictionTask[] = [];
  for (const text of files.values()) {
    if (!text.includes('gracefulEvictionTasks')) continue;
    const view = parseBindingView(text);
    if (!view) continue;
    for (const task of evictionTasksOfRecord(text))
      evictions.push({ template: refLabel(view.resource), ...task });
  }
  return evictions.sort((a, b) => (a.template < b.template ? -1 : a.template > b.template ? 1 : 0));
}

interface SourceRead {
  commit?: string;
  branchPrefix?: string;
  labels?: Map<string, Record<string, string>>;
  error?: string;
}

// The source commit's templates (their labels) and its FleetConfig's branch prefix. A commit
// that does not load, or a repository without one (a mirror's unborn HEAD), gives an error
// rather than throwing: only `-l` needs the labels, and the prefix has a default.
async function loadSource(gitdir: string, ref: string, want: { labels: boolean }): Promise<SourceRead> {
  try {
    const { commit, files } = await readGitSource({ dir: gitdir, ref });
    // For the branch prefix alone, only the files that may hold the FleetConfig are loaded.
    const loaded = loadFleet(
      want.labels ? files : files.filter((f) => /kind:\s*["']?FleetConfig/.test(f.content)),
    );
    if (!want.labels)
      return loaded.ok ? { commit, branchPrefix: loaded.fleet.config.branchPrefix } : { commit };
    if (!loaded.ok)
      return {
        commit,
        error: `${commit.slice(0, 7)}: the source commit does not load, so its templates' labels are unknown`,
      };
    return {
      commit,
      branchPrefix: loaded.fleet.config.branchPrefix,
      labels: new Map(loaded.fleet.templates.map((t) => [t.key, { ...(t.object.metadata.labels ?? {}) }])),
    };
  } catch (error) {
    return { error: `${ref}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
