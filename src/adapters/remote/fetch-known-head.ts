// The fetch of a head the doorbell named (docs/git-budget.md#doorbell). A ring says where the
// cluster branch moved (adapters/http/doorbell-request.ts), so a mirror that holds that branch
// alone (an agent's mirror of its render repository) can fetch the commit with one protocol v2
// fetch wanting it, without the ls-refs that asks where the branch is: one read a ring, not
// two. git's upload-pack v2 takes a want of an object it has whether or not a ref was
// advertised (gitprotocol-v2(5): "wants can be anything"); a commit it lacks is "not our ref".
//
// The head is a hint, not the truth. It is taken only when:
//   - the mirror already holds the branch (a first fetch asks the usual way) and the server
//     answered it in protocol v2 before (the caller's to know: fetch-mirror.ts);
//   - the commit is a fast-forward of the mirror's tracking ref (an older hub commit, what a
//     replaying doorbell names, is refused before any request when the mirror has it; another
//     branch's commit after the fetch, its pack discarded);
//   - the pack passes the check of every fetch (verify-fetched-pack.ts), and the pass then
//     checks the head's signature as for any head (loops/agent/verify-branch-head.ts).
// Anything else (refused, "not our ref", an error) is told to `refused` once, and the caller
// asks the usual way in the same refresh; a rate limit or a stop is thrown, as there is no
// usual way then either. The safety poll and the resync ask where the branch is, as always:
// a commit taken so that is not on the branch (someone able to write the repository made it,
// and the doorbell lied) is replaced by the branch's head at the next of them.
import { readCommit } from '../git/read-typed-object.js';
import { isAncestor } from '../git/is-ancestor.js';
import { readRef } from '../git/read-ref.js';
import { updateRefs } from '../git/update-ref.js';
import { fetchPackV2 } from './fetch-pack-v2.js';
import { incomingRemote, trackingRefOf } from './mirror-layout.js';
import type { RemoteAccess } from './remote-access.js';
import { isRemoteError, RemoteError } from './remote-error.js';

/** A head announced for the mirror's one branch, and who hears why it was not taken. */
export interface KnownHead {
  head: string;
  refused: (why: string) => void;
}

/**
 * Returns where the branch is once the known head is fetched and checked, or null when the
 * caller must ask where it is (a first fetch, or the head refused: `refused` was told why).
 * `verified` runs a download as every fetch of the mirror runs it (fetch-mirror.ts: the pack
 * checked, the incoming ref moved to the tracking ref, a failure's pack discarded).
 */
export async function fetchKnownHead(
  access: RemoteAccess,
  opts: { known: KnownHead; ref: string; verified: (download: () => Promise<void>) => Promise<void> },
): Promise<Map<string, string> | null> {
  const { known, ref } = opts;
  const current = await readRef(access.gitdir, trackingRefOf(ref));
  if (current === null) return null;
  if (current === known.head) return new Map([[ref, current]]);
  try {
    await opts.verified(() => downloadKnownHead(access, { ref, head: known.head, current }));
    return new Map([[ref, known.head]]);
  } catch (error) {
    if (isRemoteError(error, 'RateLimited') || access.signal?.aborted === true) throw error;
    known.refused((error as Error).message);
    return null;
  }
}

/** Fetches the head unless the mirror has it, and writes it as the incoming ref once it is a fast-forward. */
async function downloadKnownHead(
  access: RemoteAccess,
  opts: { ref: string; head: string; current: string },
): Promise<void> {
  const { gitdir } = access;
  const { ref, head, current } = opts;
  if (!/^[0-9a-f]{40}$/.test(head)) throw refusal(`${head}: not a commit id`);
  if (!(await isCommitIn(gitdir, head))) await fetchPackV2({ ...access, wants: [head], haves: [current] });
  if (!(await isCommitIn(gitdir, head))) throw refusal(`${head}: not a commit`);
  if (!(await isAncestor({ gitdir, ancestor: current, descendant: head }).catch(() => false)))
    throw refusal(`${head}: not a fast-forward of ${current}, where the mirror holds ${ref}`);
  await updateRefs({
    gitdir,
    updates: [
      {
        ref: `refs/remotes/${incomingRemote}/${ref.slice('refs/heads/'.length)}`,
        newOid: head,
        expectedOld: null,
      },
    ],
    allowNonFastForward: true,
  });
}

/** Whether the mirror holds the object, and it is a commit. */
async function isCommitIn(gitdir: string, oid: string): Promise<boolean> {
  return readCommit({ gitdir, cache: {} }, oid).then(
    () => true,
    () => false,
  );
}

// A refusal is thrown as a RemoteError so that the caller's download wrapper discards the pack
// it brought and passes the message on as it is.
function refusal(message: string): RemoteError {
  return new RemoteError('RemoteFailed', message);
}
