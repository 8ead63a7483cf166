// The notifications branch (`<prefix>notifications`, docs/notifications.md#what-was-sent): one
// file, the cursor (core/notify/notify-cursor.ts), in a commit the hub writes after deliveries, at
// most once per flush interval (one push; docs/git-budget.md), each commit a child of the last,
// compare-and-swap like every ref the hub moves. The commit says what it records in trailers.
import { toGitObject } from '../../adapters/git/hash-object.js';
import { fileMode, encodeTree } from '../../adapters/git/tree-object.js';
import { makeCommit, type GitSignature } from '../../adapters/git/make-commit.js';
import { readRef } from '../../adapters/git/read-ref.js';
import { updateRefs } from '../../adapters/git/update-ref.js';
import { writeObjects } from '../../adapters/git/write-objects.js';
import { signCommit, type CommitSigner } from '../../adapters/signing/commit-signer.js';
import { openObjectStore } from '../../adapters/git/object-store.js';
import {
  cursorFile,
  notifyCursorText,
  parseNotifyCursor,
  type NotifyCursor,
} from '../../core/notify/notify-cursor.js';
import { createFleetStatusMemo } from '../views/fleet-status-memo.js';
import { readCommit, readText, type FleetRead } from '../views/read-fleet-objects.js';
import { readTreeEntryNow } from '../../adapters/git/read-typed-object.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';

/** The cursor the branch holds and the commit it is in (null: no branch yet). */
export interface RecordedCursor {
  head: string | null;
  cursor: NotifyCursor;
}

/** Returns the cursor at the branch's head; a branch without the file gives an empty cursor. */
export async function readNotifyCursor(gitdir: string, ref: string): Promise<RecordedCursor> {
  const head = await readRef(gitdir, ref);
  if (head === null) return { head, cursor: {} };
  const read: FleetRead = { store: openObjectStore(gitdir), memo: createFleetStatusMemo() };
  const tree = readCommit(read, head).tree;
  const entry = readTreeEntryNow(read.store, tree, cursorFile);
  return { head, cursor: entry ? parseNotifyCursor(readText(read, entry.oid)) : {} };
}

export interface WriteCursorOptions {
  repo: HubRepo;
  ref: string;
  /** The head the cursor was read from or last written to: the compare-and-swap's expected value. */
  head: string | null;
  cursor: NotifyCursor;
  /** How many deliveries and drops this commit records, for its message. */
  delivered: number;
  dropped: number;
  author: GitSignature;
  signer?: CommitSigner;
}

/** Writes the cursor as the branch's next commit and publishes it; returns the new head. Throws RefConflict when another writer moved it. */
export async function writeNotifyCursor(opts: WriteCursorOptions): Promise<string> {
  const { gitdir } = opts.repo;
  const blob = toGitObject('blob', Buffer.from(notifyCursorText(opts.cursor), 'utf8'));
  const tree = toGitObject('tree', encodeTree([{ mode: fileMode, name: cursorFile, oid: blob.oid }]));
  const receivers = Object.keys(opts.cursor).length;
  const unsigned = makeCommit({
    tree: tree.oid,
    parents: opts.head === null ? [] : [opts.head],
    author: opts.author,
    message: [
      `notifications: ${opts.delivered} delivered, ${opts.dropped} dropped`,
      '',
      `The last event each of ${receivers} receiver(s) got, per stream: a hub that starts or takes`,
      'over resumes after it.',
      '',
      `Gitfleet-Notifications-Delivered: ${opts.delivered}`,
      `Gitfleet-Notifications-Dropped: ${opts.dropped}`,
    ].join('\n'),
  });
  const commit = await signCommit(unsigned, opts.signer);
  await writeObjects({ gitdir, objects: [blob, tree, commit] });
  await opts.repo.publish([{ ref: opts.ref, oldOid: opts.head, newOid: commit.oid }]);
  // A remote repository's publish moves the mirror's ref itself; a local one leaves it to us.
  if ((await readRef(gitdir, opts.ref)) !== commit.oid)
    await updateRefs({ gitdir, updates: [{ ref: opts.ref, newOid: commit.oid, expectedOld: opts.head }] });
  return commit.oid;
}
