// `gitfleet log --repo <path> [--cluster C] [-n N] [<Kind>/<namespace>/<name> | <Kind>/<name>]`:
// the audit trail of an object's rendered form across the cluster branches, newest first.
//
// Each cluster branch is a stream (log-walk.ts) that walks its first parents only as far as the
// reader takes entries; the streams are merged by time and each entry is printed as soon as it
// is found, with its source commit and the decisions behind it (log-context.ts). So the first
// entries come at once, and `-n 10` reads little more than the ten newest changes of the object
// on each cluster. The kind may be any of kubectl's names for it (`deploy`, `svc`, `cm`,
// `deployments.apps`: core/review/kind-names.ts); one that names no kind is an error saying so.
// Following an object, its explanation now (per cluster: placed or not and why) comes first.
import { logSpec } from './log-spec.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { localGitdir } from '../../adapters/remote/hub-repo.js';
import { fleetBranchPrefix } from '../fleet-branch-prefix.js';
import { clusterBranches, openLogRepo, type LogRepo } from './log-objects.js';
import { formatLogText } from '../../core/review/format-log-text.js';
import type { LogEntry } from '../../core/review/log-entry.js';
import { streamNewestFirst } from '../../core/review/merge-newest-first.js';
import { parseObjectSpec, type ObjectSpec } from '../../core/review/parse-object-spec.js';
import { resolveKindName } from '../../core/review/kind-names.js';
import type { Io } from '../io.js';
import { CommandError } from '../command-error.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';
import { commitHeads, walkBranch } from './log-walk.js';
import { CommitGraph } from '../../adapters/git/commit-graph.js';
import { entryContext } from './log-context.js';
import { kindsOnBranches } from './log-kinds.js';
import { explainObject } from './log-explain.js';
import { formatLogExplanation } from '../../core/review/format-log-explanation.js';

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
        ...(values['max-count'] !== undefined ? { maxCount: parseMaxCount(values['max-count']) } : {}),
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
  /** The object as typed: its kind is resolved against kubectl's names and the branches' kinds. */
  object?: ObjectSpec;
  /** Only this many entries, newest first. */
  maxCount?: number;
  output: 'text' | 'json';
}

/**
 * Prints the history of an object (or of every render) on the cluster branches as it is found,
 * after the object's explanation now (log-explain.ts); returns the exit code.
 */
export async function runLog(opts: LogOptions, io: Io): Promise<number> {
  const log = await openLog(opts);
  for (const [cluster, why] of log.unreadable) io.err(`log: ${cluster}: not read: ${why}`);
  const json = opts.output === 'json';
  const now = log.object
    ? await explainObject({ repo: opts.repo, branchPrefix: log.prefix, object: log.object })
    : undefined;
  const explanation = now && 'explanation' in now ? now.explanation : undefined;
  if (json)
    io.out(
      `{"branches":${JSON.stringify(log.branches)},${explanation ? `"explanation":${JSON.stringify(explanation)},` : ''}"entries":[`,
    );
  else if (explanation) io.out(`${formatLogExplanation(explanation)}\n`);
  let count = 0;
  for (const entry of log.entries()) {
    if (json) io.out(`${count === 0 ? '' : ','}${JSON.stringify(entry)}`);
    else io.out(formatLogText([entry], { followsObject: opts.object !== undefined }));
    count++;
  }
  if (json) io.out(']}');
  else if (count === 0)
    io.out(opts.object ? `no render commit touched ${describe(log.object!)}` : 'no render commits');
  return exitCodes.ok;
}

/** Returns the cluster branches read and the history on them, newest first (the dashboard's template history). */
export async function readLog(
  opts: Omit<LogOptions, 'output'>,
): Promise<{ branches: { cluster: string; branch: string }[]; entries: LogEntry[] }> {
  // The dashboard names the kind of a template exactly: nothing to resolve.
  const log = await openLog({ ...opts, exactKind: true });
  return { branches: log.branches, entries: [...log.entries()] };
}

/** A history ready to stream: the branches it reads, the object as resolved, and its entries. */
interface OpenLog {
  branches: { cluster: string; branch: string }[];
  /** The branch prefix read under. */
  prefix: string;
  /** Cluster → why its branch's render repository was not read. */
  unreadable: ReadonlyMap<string, string>;
  object?: ObjectSpec;
  entries(): Generator<LogEntry, void, undefined>;
}

async function openLog(opts: Omit<LogOptions, 'output'> & { exactKind?: boolean }): Promise<OpenLog> {
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
  const object = opts.object && (opts.exactKind ? opts.object : resolveObject(repo, branches, opts.object));
  const heads = commitHeads(repo, CommitGraph.open(gitdir));
  const complete = entryContext(repo, { bindingsBranch: `${prefix}bindings`, object });
  const limit = opts.maxCount ?? Infinity;
  return {
    branches: wanted,
    prefix,
    unreadable: repo.unreadable,
    ...(object ? { object } : {}),
    entries: function* () {
      if (limit <= 0) return;
      const streams = wanted.map((b) => walkBranch({ repo, heads, ...b, object }));
      let count = 0;
      for (const entry of streamNewestFirst(streams, (e) => e.time)) {
        yield complete(entry);
        if (++count >= limit) return;
      }
    },
  };
}

/** Returns the object with its kind as kubectl's names and the branches' kinds resolve it; a usage error when it names none. */
function resolveObject(
  repo: LogRepo,
  branches: readonly { branch: string }[],
  object: ObjectSpec,
): ObjectSpec {
  const typed = object.group === undefined ? object.kind : `${object.kind}.${object.group}`;
  const resolved = resolveKindName(typed, () => kindsOnBranches(repo, branches, object));
  if (!resolved.ok) throw new UsageError(resolved.message);
  const { group: _typed, ...rest } = object;
  return { ...rest, kind: resolved.kind, ...(resolved.group !== undefined ? { group: resolved.group } : {}) };
}

function describe(object: ObjectSpec): string {
  const kind = object.group === undefined ? object.kind : `${object.kind}.${object.group}`;
  return [kind, ...(object.namespace ? [object.namespace] : []), object.name].join('/');
}

function parseMaxCount(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n))
    throw new UsageError(`--max-count must be a whole number, not '${text}'`);
  return n;
}
