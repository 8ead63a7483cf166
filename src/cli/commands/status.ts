// `gitfleet status --repo <path> [-l SELECTOR] [--output text|json]`: every template × cluster
// with its placement, replicas, the commit each cluster applied, and health.
//
// Reads only gitfleet's branches of a local repository (no checkout): the bindings branch (one
// ResourceBinding record per template: placement and replicas), each `status/<cluster>` branch
// (the agent's report) and the heads of the `clusters/<cluster>` branches (to tell a cluster
// that has not caught up with its latest rendering). A label selector applies to the templates'
// labels, which only the source holds: the templates are loaded from the source commit the
// bindings branch names in its Gitfleet-Source-Commit trailer. After the table come why workloads
// moved (eviction tasks, the monitor's verdicts) and every rollout the bindings branch records
// under `.gitfleet/rollouts/` (docs/rollout.md), each shown whatever the selector.
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { defaultMirrorCacheDir } from '../mirror-cache-dir.js';
import { CommandError } from '../command-error.js';
import { localGitdir } from '../../loops/shared/hub-repo.js';
import { fleetBranchPrefix } from '../fleet-branch-prefix.js';
import git from 'isomorphic-git';
import { objectStoreFs } from '../../adapters/git/object-store-fs.js';
import { readGitSource } from '../../adapters/source/read-git-commit.js';
import { loadFleet } from '../../core/load/load-fleet.js';
import { refLabel } from '../../core/model/object-ref.js';
import type { LabelSelector } from '../../core/model/selectors.js';
import { parseBindingView, type BindingView } from '../../core/publish/binding-record.js';
import { parseTrailers, sourceCommitTrailer } from '../../core/publish/commit-trailers.js';
import { formatStatusText, type StatusFailover } from '../../core/status/format-status-text.js';
import { evictionTasksOfRecord } from '../../core/status/eviction-task-view.js';
import { clusterJudgedTrailer } from '../../core/failover/failover-trailers.js';
import { parseSelectorText } from '../../core/status/parse-selector-text.js';
import { rolloutViewsOf, type RolloutView } from '../../core/rollout/rollout-view.js';
import { formatRolloutSection } from '../../core/rollout/format-rollout-text.js';
import { parseStatusBranch, type AgentReport } from '../../core/status/status-branch.js';
import { statusTable } from '../../core/status/status-table.js';
import type { Io } from '../io.js';
import { tokenFileFlag, readBranchPrefixFlag } from '../shared-flags.js';
import type { CommandSpec } from '../command-line.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';
import { readToken } from '../../adapters/remote/read-token.js';
import { remoteHubRepo } from '../../adapters/remote/remote-hub-repo.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';

/** `gitfleet status`: its command line. */
export const statusSpec = {
  name: 'status',
  summary: 'templates x clusters: placement, replicas, the commit each cluster applied, health',
  positionals: [],
  flags: {
    repo: {
      type: 'string',
      value: '<path|url>',
      required: true,
      help: 'the fleet repository: a local path or an http(s) URL',
    },
    selector: {
      type: 'string',
      value: 'SELECTOR',
      short: 'l',
      help: "only templates whose labels match (kubectl's selector syntax)",
    },
    'branch-prefix': readBranchPrefixFlag,
    output: {
      type: 'string',
      short: 'o',
      choices: ['text', 'json'],
      default: 'text',
      help: 'print the table as text or JSON',
    },
    'token-file': tokenFileFlag,
  },
} as const satisfies CommandSpec;

/** `gitfleet status`: parses its command line and prints the table. */
export const statusCommand = defineCommand({
  spec: statusSpec,
  run: ({ values }, io) =>
    runStatus(
      {
        repo: values.repo,
        output: values.output,
        ...(values.selector !== undefined ? { selector: values.selector } : {}),
        ...(values['branch-prefix'] !== undefined ? { branchPrefix: values['branch-prefix'] } : {}),
        ...(values['token-file'] !== undefined ? { tokenFile: values['token-file'] } : {}),
      },
      io,
    ),
});

export interface StatusOptions {
  repo: string;
  /** kubectl-style label selector text over the templates' labels. */
  selector?: string;
  /** Overrides the FleetConfig's branchPrefix. */
  branchPrefix?: string;
  output: 'text' | 'json';
  /** For URLs: a file holding the token (else $GITFLEET_GIT_TOKEN). */
  tokenFile?: string;
}

/** Prints the status table of a local fleet repository; returns the exit code. */
export async function runStatus(opts: StatusOptions, io: Io): Promise<number> {
  let selector: LabelSelector | undefined;
  if (opts.selector !== undefined) {
    const parsed = parseSelectorText(opts.selector);
    if (!parsed.ok) throw new UsageError(parsed.message);
    selector = parsed.selector;
  }
  const local = isRepoUrl(opts.repo) ? await fetchMirror(opts) : opts.repo;
  const repo = await openRepo(local);
  const prefix = opts.branchPrefix ?? (await fleetBranchPrefix(local));
  const branches = await git.listBranches({ fs: repo.fs, gitdir: repo.gitdir });
  const bindingsBranch = `${prefix}bindings`;
  if (!branches.includes(bindingsBranch)) {
    const message = `no branch ${bindingsBranch} in ${opts.repo}: has the hub run?`;
    throw new CommandError('NoBindingsBranch', message, opts.repo);
  }
  const bindingsHead = await resolveBranch(repo, bindingsBranch);
  const bindingsFiles = await readBranchFiles(repo, bindingsHead);
  const records = [...bindingsFiles.values()];
  const bindings = records.map(parseBindingView).filter((b): b is BindingView => b !== undefined);
  const reports = await readReports(repo, branchesUnder(branches, `${prefix}status/`));
  const heads = new Map<string, string>();
  for (const [cluster, branch] of branchesUnder(branches, `${prefix}clusters/`)) {
    heads.set(cluster, await resolveBranch(repo, branch));
  }
  const rows = statusTable({
    bindings,
    reports,
    clusters: [...heads.keys()],
    renderedCommitOf: (cluster) => heads.get(cluster),
    ...(selector ? { selector, templateLabels: await templateLabels(opts.repo, repo, bindingsHead) } : {}),
  });
  const failover = await failoverOf(repo, bindingsHead, records, new Set(rows.map((r) => r.template)));
  const rollouts = rolloutViewsOf(bindingsFiles);
  io.out(
    opts.output === 'json'
      ? JSON.stringify({ rows, ...failover, ...rolloutsJson(rollouts) }, null, 2)
      : formatStatusText(rows, failover, formatRolloutSection(rollouts)),
  );
  return exitCodes.ok;
}

// Why workloads moved: the eviction tasks of the shown templates' records (spec.gracefulEvictionTasks)
// and the monitor's verdicts the bindings head records (Gitfleet-Cluster-Judged).
async function failoverOf(
  repo: Repo,
  bindingsHead: string,
  records: readonly string[],
  shown: ReadonlySet<string>,
): Promise<StatusFailover> {
  const evictions: StatusFailover['evictions'][number][] = [];
  for (const text of records) {
    const view = parseBindingView(text);
    if (!view || !shown.has(refLabel(view.resource))) continue;
    for (const task of evictionTasksOfRecord(text))
      evictions.push({ template: refLabel(view.resource), ...task });
  }
  evictions.sort((a, b) => (a.template < b.template ? -1 : a.template > b.template ? 1 : 0));
  const { commit } = await git.readCommit({
    fs: repo.fs,
    gitdir: repo.gitdir,
    oid: bindingsHead,
    cache: repo.cache,
  });
  const judged = parseTrailers(commit.message).get(clusterJudgedTrailer) ?? [];
  return { evictions, judged };
}

// The rollouts key is there only when the bindings branch records a rollout, so the output of a
// fleet without rollouts is what it was before they existed.
function rolloutsJson(views: readonly RolloutView[]): { rollouts?: readonly RolloutView[] } {
  return views.length > 0 ? { rollouts: views } : {};
}

interface Repo {
  fs: ReturnType<typeof objectStoreFs>;
  gitdir: string;
  cache: object;
}

// A remote repository is read through the same fetched mirror the hub and agents use.
async function fetchMirror(opts: StatusOptions): Promise<string> {
  const token = await readToken({ env: process.env, ...(opts.tokenFile ? { file: opts.tokenFile } : {}) });
  const mirror = remoteHubRepo({
    url: opts.repo,
    cacheDir: defaultMirrorCacheDir(),
    mirrorKey: 'status',
    ...(token ? { token } : {}),
    sourceRef: 'main',
    branchPrefix: opts.branchPrefix ?? defaultBranchPrefix,
  });
  await mirror.refresh();
  return mirror.gitdir;
}

async function openRepo(dir: string): Promise<Repo> {
  const gitdir = localGitdir(dir);
  return { fs: objectStoreFs(gitdir), gitdir, cache: {} };
}

/** Returns cluster → branch for the branches directly under a prefix. */
function branchesUnder(branches: readonly string[], start: string): Map<string, string> {
  return new Map(
    branches
      .filter((name) => name.startsWith(start) && !name.slice(start.length).includes('/'))
      .sort()
      .map((branch) => [branch.slice(start.length), branch]),
  );
}

async function resolveBranch(repo: Repo, branch: string): Promise<string> {
  return git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref: `refs/heads/${branch}` });
}

// Each status branch's report; a branch whose report does not read is left out, as if the
// cluster had reported nothing (the table then says so per template).
async function readReports(
  repo: Repo,
  branches: ReadonlyMap<string, string>,
): Promise<Map<string, AgentReport>> {
  const reports = new Map<string, AgentReport>();
  for (const [cluster, branch] of branches) {
    const report = parseStatusBranch(await readBranchFiles(repo, await resolveBranch(repo, branch)));
    if (report) reports.set(cluster, { ...report, cluster });
  }
  return reports;
}

/** Returns every `.yaml` file of a commit's tree, path → text. */
async function readBranchFiles(repo: Repo, commit: string): Promise<Map<string, string>> {
  const { commit: c } = await git.readCommit({
    fs: repo.fs,
    gitdir: repo.gitdir,
    oid: commit,
    cache: repo.cache,
  });
  const blobs: { path: string; oid: string }[] = [];
  await listBlobs(repo, c.tree, '', blobs);
  const files = new Map<string, string>();
  const decoder = new TextDecoder();
  for (let i = 0; i < blobs.length; i += 64) {
    const batch = blobs.slice(i, i + 64);
    const read = await Promise.all(
      batch.map((b) => git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid: b.oid, cache: repo.cache })),
    );
    batch.forEach((b, j) => files.set(b.path, decoder.decode(read[j]!.blob)));
  }
  return files;
}

async function listBlobs(
  repo: Repo,
  tree: string,
  base: string,
  out: { path: string; oid: string }[],
): Promise<void> {
  const { tree: entries } = await git.readTree({
    fs: repo.fs,
    gitdir: repo.gitdir,
    oid: tree,
    cache: repo.cache,
  });
  for (const entry of entries) {
    const path = base + entry.path;
    if (entry.type === 'tree') await listBlobs(repo, entry.oid, `${path}/`, out);
    else if (entry.type === 'blob' && path.endsWith('.yaml')) out.push({ path, oid: entry.oid });
  }
}

// The templates' labels from the source commit the hub rendered last (the bindings head's
// trailer), so the selector sees the same templates the bindings came from.
async function templateLabels(
  dir: string,
  repo: Repo,
  bindingsHead: string,
): Promise<Map<string, Readonly<Record<string, string>>>> {
  const { commit } = await git.readCommit({
    fs: repo.fs,
    gitdir: repo.gitdir,
    oid: bindingsHead,
    cache: repo.cache,
  });
  const source = parseTrailers(commit.message).get(sourceCommitTrailer)?.[0];
  if (!source)
    throw new CommandError(
      'BindingsWithoutSource',
      `${bindingsHead}: the bindings branch's head does not name its source commit (${sourceCommitTrailer})`,
    );
  const loaded = loadFleet((await readGitSource({ dir, ref: source })).files);
  if (!loaded.ok)
    throw new CommandError(
      'SourceDoesNotLoad',
      `${source.slice(0, 7)}: the source commit does not load, so -l cannot read template labels`,
    );
  return new Map(loaded.fleet.templates.map((t) => [t.key, t.object.metadata.labels ?? {}]));
}
