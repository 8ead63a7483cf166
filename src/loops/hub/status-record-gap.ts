// The hub's pushes to the fleet repository, paced (docs/git-budget.md#pacing): a pass whose only
// news is that status branches moved writes a bindings commit to record them (their aggregated
// status, the Gitfleet-Status-Commit heads the return handshake waits for), one push to the
// fleet repository each. With status repositories the hub looks at every cluster monitor period
// (10 s with the doorbell), so while statuses flow in (a fleet starting, the statuses after a
// source push) that was a push every pass: 5 a minute of GitHub's 6, and a person's push was
// answered 429. With `--status-record-interval` such a record waits until that long after the
// last bindings commit (its committer time, the hub's clock): the statuses in between are
// recorded together. Anything else a pass must write (a new source commit, a verdict, a branch
// someone moved, a held render) is not held.
import { readCommit } from '../../adapters/git/read-typed-object.js';
import { parseClusterTrailers } from '../../core/publish/cluster-commit-trailers.js';
import { sameJudged } from '../../core/failover/failover-trailers.js';
import type { ClusterVerdict } from '../../core/failover/monitored-status.js';
import { isRenderedAlready } from './find-rendered-already.js';
import type { ReadContext } from './read-git-state.js';
import type { BindingsHead, HubState } from './read-hub-state.js';

/** What the pass knows when it asks. */
export interface StatusRecordLook {
  read: ReadContext;
  state: HubState;
  /** The source commit the pass renders. */
  source: string;
  /** The pass's verdicts, with the statuses read now. */
  verdicts: ReadonlyMap<string, ClusterVerdict>;
  /** Whether the render repositories are as recorded (place-cluster-branches.ts: renderSettled). */
  settled: boolean;
  failoverCurrent: (head: BindingsHead) => boolean;
  needsSignature: (commit: string) => Promise<boolean>;
  now: Date;
  /** The least time between two bindings commits that only record statuses; 0: none. */
  gapMs: number;
}

/**
 * Returns when a record of the moved status branches may be written, when the pass has nothing
 * else to write and the last bindings commit is younger than the gap; null when the pass runs.
 */
export async function statusRecordWait(look: StatusRecordLook): Promise<Date | null> {
  const { bindings } = look.state;
  if (look.gapMs <= 0 || bindings.head === null || !look.settled) return null;
  if (!sameJudged(bindings.judged, look.verdicts)) return null;
  // As if the statuses had not moved: is everything else as the record says?
  const recorded = parseClusterTrailers(bindings.lastStatus);
  const otherwiseDone = await isRenderedAlready(bindings, {
    source: look.source,
    failoverCurrent: look.failoverCurrent,
    needsSignature: look.needsSignature,
    statusHeads: () => Promise.resolve(recorded),
    clusterHeads: () => Promise.resolve(look.state.clusterHeads),
  });
  if (!otherwiseDone) return null;
  const seconds = (await readCommit(look.read.store, bindings.head)).committer?.timestamp;
  if (seconds === undefined) return null;
  const due = seconds * 1000 + look.gapMs;
  return due > look.now.getTime() ? new Date(due) : null;
}
