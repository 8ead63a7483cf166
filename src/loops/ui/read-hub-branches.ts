// What the dashboard reads of the hub's branches, in one go: the bindings branch's records, each
// cluster's status report and the heads of the cluster branches. A status branch whose report
// does not parse is named in `unreadable` (the dashboard shows that cluster as unreadable and
// renders the rest), where `gitfleet status` leaves it out.
import git from 'isomorphic-git';
import { objectStoreFs } from '../../adapters/git/object-store-fs.js';
import { parseBindingView, type BindingView } from '../../core/publish/binding-record.js';
import { parseTrailers, sourceCommitTrailer } from '../../core/publish/commit-trailers.js';
import { parseStatusBranch, type AgentReport } from '../../core/status/status-branch.js';

/** A local git directory being read, with isomorphic-git's pack cache for one reading. */
export interface ReadRepo {
  fs: ReturnType<typeof objectStoreFs>;
  gitdir: string;
  cache: object;
}

/** Everything of the hub's branches the dashboard shows. */
export interface HubBranches {
  prefix: string;
  /** Null when the repository has no bindings branch: the hub has not run. */
  bindingsHead: string | null;
  /** The source commit the bindings head names (Gitfleet-Source-Commit). */
  sourceCommit: string | null;
  bindingsFiles: ReadonlyMap<string, string>;
  bindings: BindingView[];
  reports: Map<string, AgentReport>;
  /** Clusters whose status branch has no readable report. */
  unreadable: string[];
  /** cluster → head of its cluster branch. */
  heads: Map<string, string>;
}

/** Returns a repository reader over a git directory. */
export function openReadRepo(gitdir: string): ReadRepo {
  return { fs: objectStoreFs(gitdir), gitdir, cache: {} };
}

/** Reads the hub's branches under `prefix`; a repository without them gives bindingsHead null. */
export async function readHubBranches(repo: ReadRepo, prefix: string): Promise<HubBranches> {
  const branches = await git.listBranches({ fs: repo.fs, gitdir: repo.gitdir });
  const heads = new Map<string, string>();
  for (const [cluster, branch] of branchesUnder(branches, `${prefix}clusters/`))
    heads.set(cluster, await resolveBranch(repo, branch));
  const empty = {
    prefix,
    bindingsHead: null,
    sourceCommit: null,
    bindingsFiles: new Map<string, string>(),
    bindings: [],
    reports: new Map<string, AgentReport>(),
    unreadable: [],
    heads,
  };
  if (!branches.includes(`${prefix}bindings`)) return empty;
  const bindingsHead = await resolveBranch(repo, `${prefix}bindings`);
  const bindingsFiles = await readBranchFiles(repo, bindingsHead);
  const bindings = [...bindingsFiles.values()]
    .map(parseBindingView)
    .filter((b): b is BindingView => b !== undefined);
  const { commit } = await git.readCommit({ ...repo, oid: bindingsHead });
  const sourceCommit = parseTrailers(commit.message).get(sourceCommitTrailer)?.[0] ?? null;
  const reports = new Map<string, AgentReport>();
  const unreadable: string[] = [];
  for (const [cluster, branch] of branchesUnder(branches, `${prefix}status/`)) {
    const report = parseStatusBranch(await readBranchFiles(repo, await resolveBranch(repo, branch)));
    if (report) reports.set(cluster, { ...report, cluster });
    else unreadable.push(cluster);
  }
  return { ...empty, bindingsHead, sourceCommit, bindingsFiles, bindings, reports, unreadable };
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

/** Returns the commit a branch points at. */
export async function resolveBranch(repo: ReadRepo, branch: string): Promise<string> {
  return git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref: `refs/heads/${branch}` });
}

/** Returns every `.yaml` file of a commit's tree, path → text. */
export async function readBranchFiles(repo: ReadRepo, commit: string): Promise<Map<string, string>> {
  const { commit: c } = await git.readCommit({ ...repo, oid: commit });
  const blobs: { path: string; oid: string }[] = [];
  await listBlobs(repo, c.tree, '', blobs);
  const files = new Map<string, string>();
  const decoder = new TextDecoder();
  for (let i = 0; i < blobs.length; i += 64) {
    const batch = blobs.slice(i, i + 64);
    const read = await Promise.all(batch.map((b) => git.readBlob({ ...repo, oid: b.oid })));
    batch.forEach((b, j) => files.set(b.path, decoder.decode(read[j]!.blob)));
  }
  return files;
}

async function listBlobs(
  repo: ReadRepo,
  tree: string,
  base: string,
  out: { path: string; oid: string }[],
): Promise<void> {
  const { tree: entries } = await git.readTree({ ...repo, oid: tree });
  for (const entry of entries) {
    const path = base + entry.path;
    if (entry.type === 'tree') await listBlobs(repo, entry.oid, `${path}/`, out);
    else if (entry.type === 'blob' && path.endsWith('.yaml')) out.push({ path, oid: entry.oid });
  }
}

/** Returns one file of a commit's tree, or undefined when it is not there. */
export async function readFileAt(repo: ReadRepo, commit: string, path: string): Promise<string | undefined> {
  try {
    const { blob } = await git.readBlob({ ...repo, oid: commit, filepath: path });
    return new TextDecoder().decode(blob);
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFoundError') return undefined;
    throw error;
  }
}
