// Which status commit the hub reads for each cluster (docs/onboarding.md#the-hub-checks-the-reports).
// A cluster whose registration names its agent's key (the annotation gitfleet.io/signing-key,
// written by `gitfleet cluster join`) is read only from a commit signed with that key: its
// cluster status (conditions, API enablements, resources), its objects' status and its
// exported EndpointSlices all come from that commit. A head that is unsigned, or signed with
// any other key (another cluster's, a revoked one), is ignored with a warning diagnostic naming
// the commit, the branch and why, and the hub reads the newest signed commit below it on the
// branch instead (or no report at all): a forged report can never taint, evict or move anything,
// nor hide the cluster's last good report. A cluster registered without a key is read as before,
// unverified, and an info diagnostic says so.
import type { Diagnostic } from '../../core/model/diagnostic.js';
import type { Fleet } from '../../core/model/fleet.js';
import { describeVerdict, type SignatureVerdict } from '../../core/model/signature-verdict.js';
import { statusRefPrefix } from '../../core/publish/hub-refs.js';
import { readCommitBytes, readCommit as readTypedCommit } from '../../adapters/git/read-typed-object.js';
import { newestSignedBelow } from './newest-signed-below.js';
import { clusterKeyChecker, type ClusterCommitCheck, type ClusterKeyChecker } from './cluster-key-checker.js';
import type { ReadContext } from './read-git-state.js';
import type { HubState } from './read-hub-state.js';

/** How many commits below a refused head the hub looks for the newest signed one. */
export const maxStatusWalk = 16;

/** The hub's state with the status heads it reads, and what it said about the others. */
export async function withAcceptedStatus(
  read: ReadContext,
  fleet: Fleet,
  state: HubState,
): Promise<HubState> {
  const accepted = await acceptStatusHeads({
    read,
    fleet,
    heads: state.statusHeads,
    ...(state.statusReads ? { reads: state.statusReads } : {}),
  });
  return { ...state, statusHeads: accepted.heads, statusDiagnostics: accepted.diagnostics };
}

/** The status heads the hub reads, with what it said about the others. */
export interface AcceptedStatusHeads {
  heads: Map<string, string>;
  diagnostics: Diagnostic[];
}

// Checks and verifiers by pass cache (one per hub process): a commit's verdict under one key
// never changes. `newest` is, per cluster, the newest signed report the hub read (by its signed
// committer time), so a status branch moved back to an older report its agent signed (a
// replay) is not read in its place.
interface Memo {
  checks: Map<string, ClusterCommitCheck>;
  check: ClusterKeyChecker;
  newest: Map<string, { oid: string; at: number; key: string }>;
}
const memos = new WeakMap<object, Memo>();

/** Returns, per cluster, the status commit to read: the head when it is signed by the cluster's key (or the cluster has none), else the newest signed one below it. */
export async function acceptStatusHeads(input: {
  read: ReadContext;
  fleet: Fleet;
  heads: ReadonlyMap<string, string>;
  /** Cluster → where its status commit lives, when not in `read` (a status repository). */
  reads?: ReadonlyMap<string, ReadContext>;
}): Promise<AcceptedStatusHeads> {
  const { read, fleet, heads } = input;
  const memo = memoOf(read.cache);
  const accepted = new Map<string, string>();
  const diagnostics: Diagnostic[] = [];
  const branch = (cluster: string) => `${statusRefPrefix(fleet.config.branchPrefix)}${cluster}`.slice(11);
  const keyed = fleet.clusters.some((c) => c.signingKey !== undefined);
  for (const [cluster, head] of heads) {
    const key = fleet.clusters.find((c) => c.name === cluster)?.signingKey;
    if (key === undefined) {
      accepted.set(cluster, head);
      // Said where it is a gap (other clusters sign); a fleet that signs nothing is said once.
      if (keyed && fleet.clusters.some((c) => c.name === cluster)) diagnostics.push(unverified(cluster));
      continue;
    }
    const from = input.reads?.get(cluster) ?? read;
    await acceptSigned(
      { memo, from, branch: branch(cluster), accepted, diagnostics },
      { cluster, head, key },
    );
  }
  return { heads: accepted, diagnostics };
}

// A cluster with a key: its head when its key signed it, else the newest signed report below it;
// a report older than one read before under that key is not read in its place.
async function acceptSigned(
  ctx: {
    memo: Memo;
    from: ReadContext;
    branch: string;
    accepted: Map<string, string>;
    diagnostics: Diagnostic[];
  },
  target: { cluster: string; head: string; key: string },
): Promise<void> {
  const { memo, from, accepted, diagnostics } = ctx;
  const { cluster, head, key } = target;
  const checked = async (oid: string) => {
    const id = `${key}\0${oid}`;
    const known = memo.checks.get(id);
    if (known) return known;
    const check = await memo.check({ cluster, key, commit: await readCommit(from, oid) });
    memo.checks.set(id, check);
    return check;
  };
  const verify = async (oid: string) => (await checked(oid)).verdict;
  const take = async (oid: string) => {
    const at = (await checked(oid)).committedAt;
    const kept = await notOlderThanRead({ memo, cluster, key, oid, at, from });
    accepted.set(cluster, kept.oid);
    if (kept.oid !== oid) diagnostics.push(refused(cluster, replayed(ctx.branch, oid, kept.oid), kept.oid));
  };
  let verdict: SignatureVerdict;
  try {
    verdict = await verify(head);
  } catch (error) {
    // A key the loader let through but the verifier cannot read: nothing of the cluster is read.
    diagnostics.push(refused(cluster, `${ctx.branch}: ${(error as Error).message}`, undefined));
    return;
  }
  if (verdict.ok) {
    await take(head);
    return;
  }
  const older = await newestSignedBelow({
    head,
    max: maxStatusWalk,
    parentOf: async (oid) => (await readTypedCommit(from.store, oid)).parents[0],
    verify,
  });
  if (older !== undefined) await take(older);
  const why = `the status commit on ${ctx.branch} is not signed by ${cluster}'s key (its registration's gitfleet.io/signing-key): ${describeVerdict(verdict)}`;
  diagnostics.push(refused(cluster, why, accepted.get(cluster)));
}

// The report to read of a signed one: itself, or the newer one the hub read before, under the
// same key, when it was moved back to (its object still there); it becomes the newest read. A
// report a key no longer registered signed is never kept.
async function notOlderThanRead(input: {
  memo: Memo;
  cluster: string;
  key: string;
  oid: string;
  at: Date;
  from: ReadContext;
}): Promise<{ oid: string }> {
  const { memo, cluster, key, oid } = input;
  const at = input.at.getTime();
  const seen = memo.newest.get(cluster);
  const last = seen?.key === key ? seen : undefined;
  if (last !== undefined && last.oid !== oid && at < last.at) {
    const there = await readCommitBytes(input.from.store, last.oid).then(
      () => true,
      () => false,
    );
    if (there) return { oid: last.oid };
  }
  if (last === undefined || at >= last.at) memo.newest.set(cluster, { oid, at, key });
  return { oid };
}

function replayed(branch: string, oid: string, newer: string): string {
  return `${branch} was moved back to commit ${oid.slice(0, 12)}, a report older (by its signed committer time) than commit ${newer.slice(0, 12)} the hub read before: an older report pushed back is not read in its place`;
}

function refused(cluster: string, why: string, older: string | undefined): Diagnostic {
  const read =
    older === undefined ? `no report of ${cluster}` : `its last signed report, commit ${older.slice(0, 12)}`;
  return {
    severity: 'warning',
    code: 'StatusRefused',
    subject: `Cluster/${cluster}`,
    cluster,
    message: `${why}; ignored, the hub reads ${read}`,
  };
}

function unverified(cluster: string): Diagnostic {
  return {
    severity: 'info',
    code: 'StatusUnverified',
    subject: `Cluster/${cluster}`,
    cluster,
    message: `the registration of ${cluster} names no signing key (gitfleet.io/signing-key): its status, heartbeat and endpoint reports are read unverified; gitfleet cluster join writes one`,
  };
}

async function readCommit(from: ReadContext, oid: string): Promise<{ oid: string; content: Uint8Array }> {
  return { oid, content: await readCommitBytes(from.store, oid) };
}

function memoOf(cache: object): Memo {
  let memo = memos.get(cache);
  if (!memo) {
    memo = { checks: new Map(), check: clusterKeyChecker(), newest: new Map() };
    memos.set(cache, memo);
  }
  return memo;
}
