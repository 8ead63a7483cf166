// One cluster branch's history for `gitfleet log`, newest first, found as it is read: a generator
// that walks the first parents (the hub writes linear history) only as far as the reader takes
// entries. Following an object, a commit is listed when the object's files differ from its
// parent's. Each step costs the commit's header (tree, parent, time) and one lookup of the
// namespace directory in its root tree: only when that directory's id moved are the kind
// directories read. With a commit-graph (commit-graph.ts) the header comes from the graph, and
// with its changed-path filters a commit whose filter says the namespace did not change costs
// no read at all, as `git log -- <path>` skips it.
import type { CommitGraph } from '../../adapters/git/commit-graph.js';
import { compareFiles, type LogEntry } from '../../core/review/log-entry.js';
import {
  isKindDirOf,
  namespaceDir,
  objectFileName,
  type ObjectSpec,
} from '../../core/review/parse-object-spec.js';
import { parseRenderCommit } from '../../core/review/parse-render-commit.js';
import { decisionLinesOf } from '../../core/review/decision-lines.js';
import {
  branchHead,
  readCommitHead,
  readLogCommit,
  readLogTree,
  treeEntryOid,
  type CommitHead,
  type LogCommit,
  type LogRepo,
} from './log-objects.js';

/** Where commit headers come from: the commit-graph when it has the commit, else the commit. */
export interface CommitHeads {
  head(oid: string): CommitHead;
  /** True when the commit's changed-path filter says `dir` is unchanged from its first parent. */
  unchanged(oid: string, dir: string): boolean;
}

/** Returns headers from the repository's commit-graph where it holds them, else from the commits. */
export function commitHeads(repo: LogRepo, graph: CommitGraph | undefined): CommitHeads {
  if (graph === undefined) return { head: (oid) => readCommitHead(repo, oid), unchanged: () => false };
  return {
    head: (oid) => graph.commit(oid) ?? readCommitHead(repo, oid),
    unchanged: (oid, dir) => graph.unchanged(oid, dir),
  };
}

/** The followed object's files in one commit: its namespace directory's id and path → blob id. */
interface ObjectFiles {
  nsTree: string | null;
  files: Map<string, string>;
}

const none: ObjectFiles = { nsTree: null, files: new Map() };

/** Yields the branch's commits, newest first: all of them, or those that touched the object. */
export function* walkBranch(input: {
  repo: LogRepo;
  heads: CommitHeads;
  cluster: string;
  branch: string;
  object?: ObjectSpec | undefined;
}): Generator<LogEntry, void, undefined> {
  const { repo, heads, cluster, object } = input;
  let oid = branchHead(repo, input.branch);
  if (object === undefined) {
    while (oid !== undefined) {
      const commit = readLogCommit(repo, oid);
      yield entryOf(cluster, oid, commit);
      oid = commit.parents[0];
    }
    return;
  }
  const dir = namespaceDir(object);
  const filesIn = objectFilesReader(repo, object);
  let head = oid === undefined ? undefined : heads.head(oid);
  let files = head ? filesIn(head.tree, none) : none;
  while (oid !== undefined && head !== undefined) {
    const parent = head.parent;
    const parentHead = parent === undefined ? undefined : heads.head(parent);
    const parentFiles =
      parentHead === undefined ? none : heads.unchanged(oid, dir) ? files : filesIn(parentHead.tree, files);
    const changes = parentFiles.nsTree === files.nsTree ? [] : compareFiles(parentFiles.files, files.files);
    if (changes.length > 0) yield { ...entryOf(cluster, oid, readLogCommit(repo, oid)), changes };
    [oid, head, files] = [parent, parentHead, parentFiles];
  }
}

/** Returns the entry of a commit as its message tells it (the change list it names). */
function entryOf(cluster: string, oid: string, commit: LogCommit): LogEntry {
  const info = parseRenderCommit(commit.message);
  const ref = info.sourceRef !== undefined ? { ref: info.sourceRef } : {};
  const decisions = decisionLinesOf(commit.message);
  return {
    cluster,
    commit: oid,
    time: commit.committer.timestamp,
    subject: info.subject,
    type: info.type,
    changes: info.changes,
    source: info.sourceCommit ? { commit: info.sourceCommit, ...ref, missing: false } : null,
    ...(info.endpointsFrom ? { endpointsFrom: info.endpointsFrom } : {}),
    ...(decisions.length > 0 ? { decisions } : {}),
  };
}

// Reads the object's files in a commit tree: `<ns>/<matching kind dirs>/<name>.yaml`. The
// namespace directory's id is looked up first: when it is the one of `known` (the child's), so
// are the files, and nothing more is read.
function objectFilesReader(
  repo: LogRepo,
  spec: ObjectSpec,
): (tree: string, known: ObjectFiles) => ObjectFiles {
  const dir = namespaceDir(spec);
  return (tree, known) => {
    const ns = treeEntryOid(repo, tree, dir);
    if (ns === undefined) return none;
    if (ns === known.nsTree) return known;
    const files = new Map<string, string>();
    for (const kindDir of readLogTree(repo, ns).filter(
      (e) => e.type === 'tree' && isKindDirOf(spec, e.path),
    )) {
      const blob = treeEntryOid(repo, kindDir.oid, objectFileName(spec));
      if (blob !== undefined) files.set(`${dir}/${kindDir.path}/${objectFileName(spec)}`, blob);
    }
    return { nsTree: ns, files };
  };
}
