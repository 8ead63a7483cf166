// Which heads of a cluster's heartbeat and status refs the cluster monitor takes as signs of
// life (docs/security.md#the-hub-checks-what-agents-sign). A cluster whose registration names a
// key (gitfleet.io/signing-key) proves it is alive only with commits signed by that key, as
// its status is read only from such commits (accept-status-heads.ts): a head that is unsigned,
// signed by another key (another cluster's, one the registration no longer names), or a signed
// head moved back to (replayed) is refused with one warning naming the commit, the ref, the
// cluster and why, and the monitor goes on seeing the last head it accepted, as if the refused
// one had never been pushed: the cluster is judged exactly as with no heartbeat. A cluster
// registered without a key is taken at its refs, unverified (the pass's StatusUnverified
// diagnostic says so where other clusters sign).
//
// A replayed head: heartbeat commits are parentless and replaced at every renewal, so anyone who
// kept old ones could push them back, each a move of the ref. A head counts only when its
// committer time (signed) is later than the last accepted head's of the same ref, or the same
// second and not accepted before: an agent writes its heads in order.
//
// Cost: a ref whose head has not moved since the last look costs a map lookup; a moved head is
// read and verified once (the object from `gitdir`). A head whose commit is not there yet (a
// remote's mirror that has not fetched it) is not counted and is looked at again next time.
import { describeVerdict } from '../../core/model/signature-verdict.js';
import { readCommitBytes } from '../../adapters/git/read-typed-object.js';
import type { Logger } from '../runtime/logger.js';
import { clusterKeyChecker } from './cluster-key-checker.js';

/** The two refs whose moves prove a cluster alive. */
export type LivenessRef = 'heartbeat' | 'status';

/** One ref's head as the monitor sees it. */
export interface LivenessHead {
  cluster: string;
  kind: LivenessRef;
  /** The full ref name, for the warning. */
  ref: string;
  /** Its head now (null: no such ref). */
  oid: string | null;
  /** The cluster's registered key (undefined: none, the head is taken as it is). */
  key: string | undefined;
  /** The git directory holding the head's commit. */
  gitdir: string;
}

/** The monitor's judge of heads: the last accepted head of each ref. */
export interface SignedLiveness {
  /** Returns the head of the ref that counts as the cluster's last sign of life (null: none yet). */
  accept(head: LivenessHead): Promise<string | null>;
  /** Forgets the refs of clusters not among these (they left the fleet). */
  retain(clusters: ReadonlySet<string>): void;
}

interface Track {
  /** The head last looked at, whatever its verdict. */
  seen: string | null;
  /** The last head accepted. */
  accepted: string | null;
  /** The committer time of the newest head accepted (ms), and the heads accepted at that time. */
  newest: number;
  atNewest: Set<string>;
}

/** Returns a judge with no head accepted yet. */
export function signedLiveness(opts: { log: Logger }): SignedLiveness {
  const tracks = new Map<string, Track>();
  const check = clusterKeyChecker();
  const refuse = (head: LivenessHead, oid: string, why: string): void =>
    opts.log.warn(
      `cluster ${head.cluster}: ${head.kind} ${head.ref} at commit ${oid.slice(0, 12)} ignored, not taken as a sign of life: ${why}`,
      { cluster: head.cluster },
    );
  return {
    async accept(head) {
      const id = `${head.cluster}\0${head.kind}`;
      let track = tracks.get(id);
      if (!track) tracks.set(id, (track = { seen: null, accepted: null, newest: 0, atNewest: new Set() }));
      const { oid, key } = head;
      if (oid === track.seen) return track.accepted;
      if (oid === null || key === undefined) {
        // A deleted ref proves nothing; a cluster without a key is taken at its refs.
        track.seen = oid;
        if (key === undefined) track.accepted = oid;
        return track.accepted;
      }
      let content: Uint8Array;
      try {
        content = await readCommitBytes({ gitdir: head.gitdir }, oid);
      } catch {
        return track.accepted; // not here yet: looked at again next time
      }
      track.seen = oid;
      const { verdict, committedAt } = await check({ cluster: head.cluster, key, commit: { oid, content } });
      if (!verdict.ok) {
        refuse(
          head,
          oid,
          `not signed by ${head.cluster}'s key (gitfleet.io/signing-key): ${describeVerdict(verdict)}`,
        );
        return track.accepted;
      }
      const last = track.accepted;
      if (!takeIfNewer(track, oid, committedAt.getTime())) {
        refuse(
          head,
          oid,
          `signed by ${head.cluster}'s key, but not newer than the ${head.kind} last accepted (commit ${last!.slice(0, 12)}): an older head pushed back`,
        );
        return last;
      }
      return oid;
    },
    retain(clusters) {
      for (const id of [...tracks.keys()])
        if (!clusters.has(id.slice(0, id.indexOf('\0')))) tracks.delete(id);
    },
  };
}

// Takes a signed head committed at `at` (ms) unless it is older than the newest taken, or that
// same head again at its time (pushed back); the first head is always taken, so a refusal has one before it.
function takeIfNewer(track: Track, oid: string, at: number): boolean {
  if (track.accepted !== null && (at < track.newest || (at === track.newest && track.atNewest.has(oid))))
    return false;
  if (at > track.newest) track.atNewest.clear();
  track.newest = Math.max(track.newest, at);
  track.atNewest.add(oid);
  track.accepted = oid;
  return true;
}
