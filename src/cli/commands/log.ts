// `gitfleet log --repo <path> [--cluster C] [<Kind>/<namespace>/<name> | <Kind>/<name>]`: the
// audit trail of an object's rendered form across the cluster branches, newest first.
//
// Each cluster branch is walked along its first parents (the hub writes linear history). For an
// object, a commit is listed when the object's blob differs from its parent's: the walk compares
// the namespace directory's tree id first and reads further only when it moved, so a long history
// costs a few tree reads per commit. Each entry names its source commit (the
// Gitfleet-Source-Commit trailer), read for its author and subject; a source commit that is gone
// (history rewritten) is reported as missing, not as an error. An entry a failover or rollout
// decision made says why: its own Gitfleet-Eviction(-Done), Gitfleet-Rollout and
// Gitfleet-Rollback trailers and the decisions of the bindings
// commit that recorded it (the oldest whose Gitfleet-Cluster-Commit names it; the bindings
// branch is walked back only as far as the oldest entry listed).
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { localGitdir } from '../../loops/shared/hub-repo.js';
import { fleetBranchPrefix } from '../fleet-branch-prefix.js';
import {
  branchHead,
  clusterBranches,
  NoSuchCommit,
  openLogRepo,
  readLogCommit,
  readLogTree,
  type LogCommit,
  type LogRepo,
} from './log-objects.js';
import { formatLogText } from '../../core/review/format-log-text.js';
import { compareFiles, type LogEntry, type LogSource } from '../../core/review/log-entry.js';
import { mergeNewestFirst } from '../../core/review/merge-newest-first.js';
import {
  isKindDirOf,
  namespaceDir,
  objectFileName,
  parseObjectSpec,
  type ObjectSpec,
} from '../../core/review/parse-object-spec.js';
import { parseRenderCommit } from '../../core/review/parse-render-commit.js';
import { decisionLinesOf } from '../../core/review/decision-lines.js';
import { parseTrailers } from '../../core/publish/commit-trailers.js';
import { clusterCommitTrailer, parseClusterTrailers } from '../../core/publish/cluster-commit-trailers.js';
import type { Io } from '../io.js';
import { readBranchPrefixFlag } from '../shared-flags.js';
import type { CommandSpec } from '../command-line.js';
import { CommandError } from '../command-error.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';

/** `gitfleet log`: its command line. */
export const logSpec = {
  name: 'log',
  summary: 'the history of an object (or of every render) on the cluster branches, newest first',
  positionals: [
    {
      name: 'OBJECT',
      optional: true,
      help: 'the object to follow: <Kind>[.<group>]/<namespace>/<name>, or <Kind>/<name> when cluster-scoped',
    },
  ],
  flags: {
    repo: { type: 'string', value: '<path>', required: true, help: 'a local fleet repository (bare or not)' },
    cluster: { type: 'string', value: 'C', help: "only this cluster's branch" },
    'branch-prefix': readBranchPrefixFlag,
    output: {
      type: 'string',
      choices: ['text', 'json'],
      default: 'text',
      help: 'print the history as text or JSON',
    },
  },
} as const satisfies CommandSpec;

/** `gitfleet log`: parses its command line and prints the history. */
export const logCommand = defineCommand({
  spec: logSpec,
  run: ({ values, positionals }, io) => {
    if (isRepoUrl(values.repo)) throw new UsageError('log reads a local repository; clone or fetch it first');
    let object: ObjectSpec | undefined;
    if (positionals[0] !== undefined) {
      const spec = parseObjectSpec(positionals[0]);
      if (!spec.ok) throw new UsageError(spec.message);
      object = spec.spec;
    }
    return runLog(
      {
        repo: values.repo,
        output: values.output,
        ...(values.cluster !== undefined ? { cluster: values.cluster } : {}),
        ...(values['branch-prefix'] !== undefined ? { branchPrefix: values['branch-prefix'] } : {}),
        ...(object ? { object } : {}),
      },
      io,
    );
  },
});

export interface LogOptions {
  repo: string;
  cluster?: string;
  /** Overrides the FleetConfig's branchPrefix. */
  branchPrefix?: string;
  object?: ObjectSpec;
  output: 'text' | 'json';
}

/** Prints the history of an object (or of every render) on the cluster branches; returns the exit code. */
export async function runLog(opts: LogOptions, io: Io): Promise<number> {
  const { branches: wanted, entries, unreadable } = await readLog(opts);
  for (const [cluster, why] of unreadable) io.err(`log: ${cluster}: not read: ${why}`);
  if (opts.output === 'json') io.out(JSON.stringify({ branches: wanted, entries }, null, 2));
  else if (entries.length === 0) io.out(opts.object ? 'no render commit touched it' : 'no render commits');
  else io.out(formatLogText(entries, { followsObject: opts.object !== undefined }));
  return exitCodes.ok;
}

/** Returns the cluster branches read and the history on them, newest first (what `gitfleet log` prints). */
export async function readLog(opts: Omit<LogOptions, 'output'>): Promise<{
  branches: { cluster: string; branch: string }[];
  entries: LogEntry[];
  /** Cluster → why its branch's render repository was not read. */
  unreadable: ReadonlyMap<string, string>;
}> {
  const gitdir = localGitdir(opts.repo);
  const prefix = opts.branchPrefix ?? (await fleetBranchPrefix(opts.repo));
  const repo = await openLogRepo(gitdir, prefix);
  const branches = clusterBranches(repo, prefix);
  const wanted = opts.cluster === undefined ? branches : branches.filter((b) => b.cluster === opts.cluster);
  const why = opts.cluster === undefined ? undefined : repo.unreadable.get(opts.cluster);
  if (why !== undefined) throw new CommandError('NoClusterBranch', `${opts.cluster}: ${why}`, opts.repo);
  if (wanted.length === 0) {
    const which = opts.cluster === undefined ? `${prefix}clusters/*` : `${prefix}clusters/${opts.cluster}`;
    throw new CommandError('NoClusterBranch', `no cluster branch ${which} in ${opts.repo}`, opts.repo);
  }
  const lists = [];
  for (const branch of wanted) lists.push(walkBranch({ repo, ...branch, object: opts.object }));
  const entries = mergeNewestFirst(lists, (e) => e.time);
  addSources(repo, entries);
  addDecisions(repo, `${prefix}bindings`, entries);
  return { branches: wanted, entries, unreadable: repo.unreadable };
}

type ObjectFiles = { nsTree: string | null; files: Map<string, string> };

/** A commit of the walk, with the followed object's files in it (when following one). */
interface Visited {
  oid: string;
  commit: LogCommit;
  files?: ObjectFiles;
}

/** Returns the branch's commits, newest first: all of them, or those that touched the object. */
function walkBranch(input: {
  repo: LogRepo;
  cluster: string;
  branch: string;
  object?: ObjectSpec | undefined;
}): LogEntry[] {
  const { repo, cluster } = input;
  const filesOf = input.object && objectFilesReader(repo, input.object);
  const entries: LogEntry[] = [];
  let oid: string | undefined = branchHead(repo, input.branch);
  let child: Visited | undefined;
  while (oid !== undefined || child !== undefined) {
    let current: Visited | undefined;
    if (oid !== undefined) {
      const commit = readLogCommit(repo, oid);
      current = { oid, commit, ...(filesOf ? { files: filesOf(commit.tree) } : {}) };
    }
    const entry = child && entryFor({ cluster, child, parent: current });
    if (entry) entries.push(entry);
    child = current;
    oid = current?.commit.parents[0];
  }
  return entries;
}

// The entry of a commit against its first parent; undefined when following an object it did not touch.
function entryFor(input: {
  cluster: string;
  child: Visited;
  parent: Visited | undefined;
}): LogEntry | undefined {
  const { child } = input;
  const info = parseRenderCommit(child.commit.message);
  let changes = info.changes;
  if (child.files) {
    const before = input.parent?.files ?? { nsTree: null, files: new Map<string, string>() };
    changes = before.nsTree === child.files.nsTree ? [] : compareFiles(before.files, child.files.files);
    if (changes.length === 0) return undefined;
  }
  const ref = info.sourceRef !== undefined ? { ref: info.sourceRef } : {};
  return {
    cluster: input.cluster,
    commit: child.oid,
    time: child.commit.committer.timestamp,
    subject: info.subject,
    type: info.type,
    changes,
    source: info.sourceCommit ? { commit: info.sourceCommit, ...ref, missing: false } : null,
    ...(info.endpointsFrom ? { endpointsFrom: info.endpointsFrom } : {}),
    ...(decisionLinesOf(child.commit.message).length > 0
      ? { decisions: decisionLinesOf(child.commit.message) }
      : {}),
  };
}

/** Adds to each entry the failover and rollout decisions of the bindings commit that recorded it. */
function addDecisions(repo: LogRepo, bindingsBranch: string, entries: LogEntry[]): void {
  if (entries.length === 0) return;
  let oid = branchHead(repo, bindingsBranch);
  // No bindings branch: the cluster commits' own trailers are all there is.
  if (oid === undefined) return;
  const oldest = Math.min(...entries.map((e) => e.time));
  const recorded = new Map<string, string[]>();
  while (oid !== undefined) {
    const commit = readLogCommit(repo, oid);
    if (commit.committer.timestamp < oldest) break;
    const lines = decisionLinesOf(commit.message);
    // Newest first: an older commit naming the same cluster commit overwrites, so the oldest wins.
    for (const [cluster, head] of parseClusterTrailers(
      parseTrailers(commit.message).get(clusterCommitTrailer) ?? [],
    ))
      recorded.set(`${cluster}=${head}`, lines);
    oid = commit.parents[0];
  }
  for (const entry of entries) {
    const lines = recorded.get(`${entry.cluster}=${entry.commit}`) ?? [];
    const all = [...new Set([...(entry.decisions ?? []), ...lines])];
    if (all.length > 0) entry.decisions = all;
  }
}

// Reads the object's files in a commit tree: `<ns>/<matching kind dirs>/<name>.yaml`. The
// namespace tree's id is compared first, so an unchanged namespace costs one tree read.
function objectFilesReader(repo: LogRepo, spec: ObjectSpec): (tree: string) => ObjectFiles {
  const readTree = (oid: string) => readLogTree(repo, oid);
  let last: ObjectFiles | undefined;
  return (tree) => {
    const ns = readTree(tree).find((e) => e.path === namespaceDir(spec) && e.type === 'tree');
    if (ns === undefined) return { nsTree: null, files: new Map() };
    if (last?.nsTree === ns.oid) return last;
    const files = new Map<string, string>();
    for (const kindDir of readTree(ns.oid).filter((e) => e.type === 'tree' && isKindDirOf(spec, e.path))) {
      const blob = readTree(kindDir.oid).find((e) => e.path === objectFileName(spec) && e.type === 'blob');
      if (blob) files.set(`${ns.path}/${kindDir.path}/${blob.path}`, blob.oid);
    }
    return (last = { nsTree: ns.oid, files });
  };
}

function addSources(repo: LogRepo, entries: LogEntry[]): void {
  const read = new Map<string, LogSource>();
  for (const entry of entries) {
    if (entry.source === null) continue;
    const { commit, ref } = entry.source;
    let source = read.get(commit);
    if (source === undefined) read.set(commit, (source = readSourceCommit(repo, commit)));
    entry.source = { ...source, ...(ref !== undefined ? { ref } : {}) };
  }
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
