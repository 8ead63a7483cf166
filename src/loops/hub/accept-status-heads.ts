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
import { clusterKeyChecker, type ClusterKeyChecker } from './cluster-key-checker.js';
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

// Verdicts and verifiers by pass cache: a commit's verdict under one key never changes.
interface Memo {
  verdicts: Map<string, SignatureVerdict>;
  check: ClusterKeyChecker;
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
    const verify = async (oid: string) => {
      const id = `${key}\0${oid}`;
      const known = memo.verdicts.get(id);
      if (known) return known;
      const { verdict } = await memo.check({ cluster, key, commit: await readCommit(from, oid) });
      memo.verdicts.set(id, verdict);
      return verdict;
    };
    let verdict: SignatureVerdict;
    try {
      verdict = await verify(head);
    } catch (error) {
      // A key the loader let through but the verifier cannot read: nothing of the cluster is read.
      diagnostics.push(refused(cluster, `${branch(cluster)}: ${(error as Error).message}`, undefined));
      continue;
    }
    if (verdict.ok) {
      accepted.set(cluster, head);
      continue;
    }
    const older = await newestSignedBelow({
      head,
      max: maxStatusWalk,
      parentOf: async (oid) => (await readTypedCommit(from.store, oid)).parents[0],
      verify,
    });
    if (older !== undefined) accepted.set(cluster, older);
    const why = `the status commit on ${branch(cluster)} is not signed by ${cluster}'s key (its registration's gitfleet.io/signing-key): ${describeVerdict(verdict)}`;
    diagnostics.push(refused(cluster, why, older));
  }
  return { heads: accepted, diagnostics };
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
    memo = { verdicts: new Map(), check: clusterKeyChecker() };
    memos.set(cache, memo);
  }
  return memo;
}
