// Writes the status branch: the report's files (statusBranchFiles), a tree built from scratch,
// and a commit on top of the branch's head only when that tree differs from the head's (or the
// message tells news the tree does not hold: drift corrections since the last commit), then a
// publish and, once it succeeded, a compare-and-swap move of the local ref. A pass with nothing
// new writes nothing; a pass whose push the pacer holds (push-pacer.ts) writes nothing either,
// and the pass the pacer asks for then writes the newest report.
//
// The order matters: the local ref is what the next pass compares with, so it must never run
// ahead of the remote. Were it moved first, one refused or dropped push would leave it ahead,
// every later pass would find "unchanged" and the status would never reach the remote. Now a
// failed publish throws (the pass fails) and leaves the ref where it was, so the next pass
// writes and pushes again; a crash between the two leaves only an unreferenced commit.
import { buildTreeFromScratch } from '../../adapters/git/build-tree-from-scratch.js';
import type { GitObject } from '../../adapters/git/git-object.js';
import { toGitObject } from '../../adapters/git/hash-object.js';
import { makeCommit, type GitSignature } from '../../adapters/git/make-commit.js';
import { signCommit, type CommitSigner } from '../../adapters/signing/commit-signer.js';
import { readBlobText, readCommit, readTree } from '../../adapters/git/read-typed-object.js';
import { treeMode } from '../../adapters/git/tree-object.js';
import { readRef } from '../../adapters/git/read-ref.js';
import { updateRefs } from '../../adapters/git/update-ref.js';
import { writeObjects } from '../../adapters/git/write-objects.js';
import { objectPath } from '../../core/format/object-path.js';
import {
  objectsDir,
  objectStatusFile,
  statusBranchFiles,
  type AgentReport,
  type ObjectStatusRecord,
} from '../../core/status/status-branch.js';
import type { AgentRepo } from './agent-repo.js';
import type { PushPacer } from './push-pacer.js';

export type StatusWrite =
  | { type: 'unchanged'; commit: string }
  | { type: 'written'; commit: string }
  /** The pacer (push-pacer.ts) holds the push: nothing was written; try again in `waitMs`. */
  | { type: 'deferred'; waitMs: number };

export interface WriteStatusOptions {
  repo: AgentRepo;
  ref: string;
  report: AgentReport;
  message: string;
  author: GitSignature;
  /** Told when moving the ref recovered the locks a killed gitfleet writer left. */
  warn?: (message: string) => void;
  /** What earlier writes made, so an unchanged report costs neither files nor a tree (createStatusMemo). */
  memo?: StatusMemo;
  /** Signs the status commit (`agent --signing-key`); absent: unsigned. */
  signer?: CommitSigner;
  /**
   * The message tells what the tree does not (drift corrections since the last commit): a commit
   * is written even when the report is the head's, paced like any.
   */
  news?: boolean;
  /** Paces the push (push-pacer.ts): a changed report that may not go yet is not written. */
  pacer?: Pick<PushPacer, 'waitMs' | 'pushed'>;
}

/**
 * What an agent's earlier status writes made: the file of each record (records are never
 * changed once made), and the last report found on or written to the branch: its records, the
 * text of its other files, and the commit that holds it.
 */
export interface StatusMemo {
  blobs: WeakMap<ObjectStatusRecord, GitObject>;
  last?: { commit: string; records: readonly ObjectStatusRecord[]; others: string };
}

/** Returns an empty memo. */
export function createStatusMemo(): StatusMemo {
  return { blobs: new WeakMap() };
}

/** Commits the report when it differs from the branch's head and moves the ref; returns the head afterwards. */
export async function writeStatusBranch(opts: WriteStatusOptions): Promise<StatusWrite> {
  const { gitdir } = opts.repo;
  const others = statusBranchFiles({ ...opts.report, objects: [] });
  const othersText = [...others].map(([path, text]) => `${path}\0${text}`).join('\0');
  const head = await readRef(gitdir, opts.ref);
  const last = opts.memo?.last;
  // The head holds the last report: the same records (the same objects) and other files are the same tree.
  if (head !== null && !opts.news && last?.commit === head && last.others === othersText) {
    if (sameRecords(last.records, opts.report.objects)) return { type: 'unchanged', commit: head };
  }
  const remember = (commit: string) => {
    if (opts.memo) opts.memo.last = { commit, records: opts.report.objects, others: othersText };
  };
  const { blobs, tree } = statusTree(opts, others);
  if (head !== null && !opts.news && (await readCommit({ gitdir }, head)).tree === tree.root) {
    remember(head);
    return { type: 'unchanged', commit: head };
  }
  const waitMs = opts.pacer?.waitMs() ?? 0;
  if (waitMs > 0) return { type: 'deferred', waitMs };
  const commit = await commitAndPublish(opts, { head, tree, blobs });
  remember(commit);
  return { type: 'written', commit };
}

// The report's tree: its other files, then each record's file (made once per record, kept in the memo).
function statusTree(
  opts: WriteStatusOptions,
  others: Map<string, string>,
): { blobs: Map<string, GitObject>; tree: ReturnType<typeof buildTreeFromScratch> } {
  const blobs = new Map<string, GitObject>();
  const files = new Map<string, string>();
  const add = (path: string, blob: GitObject) => {
    blobs.set(blob.oid, blob);
    files.set(path, blob.oid);
  };
  for (const [path, text] of others) add(path, toGitObject('blob', Buffer.from(text, 'utf8')));
  for (const record of opts.report.objects) {
    const known = opts.memo?.blobs.get(record);
    if (known) add(objectsDir + objectPath(record.ref), known);
    else {
      const [path, text] = objectStatusFile(record);
      const blob = toGitObject('blob', Buffer.from(text, 'utf8'));
      opts.memo?.blobs.set(record, blob);
      add(path, blob);
    }
  }
  return { blobs, tree: buildTreeFromScratch(files) };
}

// The commit over the tree, signed, written, published and the local ref moved; returns its id.
async function commitAndPublish(
  opts: WriteStatusOptions,
  at: { head: string | null; tree: ReturnType<typeof buildTreeFromScratch>; blobs: Map<string, GitObject> },
): Promise<string> {
  const { gitdir } = opts.repo;
  const { head, tree } = at;
  const commit = await signCommit(
    makeCommit({
      tree: tree.root,
      parents: head === null ? [] : [head],
      author: opts.author,
      message: opts.message,
    }),
    opts.signer,
  );
  // Deflated on this thread: deflate workers (write-pack.ts) would add a V8 isolate each to the
  // agent's peak memory for its one large write, the first report of a large branch.
  await writeObjects({ gitdir, objects: [...at.blobs.values(), ...tree.newObjects, commit], threads: 0 });
  opts.pacer?.pushed();
  await opts.repo.publish([{ ref: opts.ref, oldOid: head, newOid: commit.oid }]);
  // A remote repository's publish moves the mirror's ref itself; a local one leaves it to us.
  if ((await readRef(gitdir, opts.ref)) !== commit.oid) {
    await updateRefs({
      gitdir,
      updates: [{ ref: opts.ref, newOid: commit.oid, expectedOld: head }],
      ...(opts.warn ? { warn: opts.warn } : {}),
    });
  }
  return commit.oid;
}

/** Returns whether two reports hold the same record objects, in any order (each file is named by its record). */
function sameRecords(a: readonly ObjectStatusRecord[], b: readonly ObjectStatusRecord[]): boolean {
  if (a.length !== b.length) return false;
  const seen = new Set(a);
  return seen.size === a.length && b.every((record) => seen.has(record));
}

/** Returns the files of the status branch's head (path → text), empty when there is none. */
export async function readStatusFiles(gitdir: string, ref: string): Promise<Map<string, string>> {
  const head = await readRef(gitdir, ref);
  const files = new Map<string, string>();
  if (head === null) return files;
  const walk = async (tree: string, prefix: string): Promise<void> => {
    for (const entry of await readTree({ gitdir }, tree, prefix.slice(0, -1))) {
      const path = `${prefix}${entry.name}`;
      if (entry.mode === treeMode) await walk(entry.oid, `${path}/`);
      else files.set(path, await readBlobText({ gitdir }, entry.oid, path));
    }
  };
  await walk((await readCommit({ gitdir }, head)).tree, '');
  return files;
}
