// Records only the hub signed (docs/security.md#records-the-hub-reads-back). What the hub reads
// back from its bindings branch decides what moves: the previous bindings (stickiness), the
// failover records (taints, eviction tasks), the rollout records, and the head's trailers (the
// source commit rendered last, the cluster heads it wrote, the verdicts, the wake time, the
// refused deletions). With a signing key, a head the hub's keys did not sign (its current key,
// and `hub --trusted-keys`: its earlier keys during a rotation) is not trusted: the pass reads
// the newest record below it, first parents only, within maxRecordWalk commits, that they did
// sign, and names the head in a RecordUntrusted warning. Its own next bindings commit goes on
// top of the branch with the trusted record's state: the hand-edited record is written over.
// No signed record within the walk: the pass goes on as on a new bindings branch (what deleting
// the branch, which any writer can do, would give), never from a record nobody vouches for.
// A hub that starts signing a fleet it rendered unsigned may be told which head to vouch for
// (`hub --adopt-records COMMIT`): that exact head is read as the hub's own, once, so the first
// signed pass keeps the placements, evictions and rollouts in progress; any other head is judged
// as above.
import type { Diagnostic } from '../../core/model/diagnostic.js';
import { describeVerdict, type SignatureVerdict } from '../../core/model/signature-verdict.js';
import { readCommit, readCommitBytes } from '../../adapters/git/read-typed-object.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import type { CommitVerifier } from '../../adapters/signing/commit-verifier.js';
import { signerVerifier } from '../../adapters/signing/signer-verifier.js';
import { newestSignedBelow } from './newest-signed-below.js';
import type { ReadContext } from './read-git-state.js';
import { readBindingsAt, readBindingsFiles, type HubState } from './read-hub-state.js';

/** How many commits below an untrusted bindings head the hub looks for the newest record it signed. */
export const maxRecordWalk = 64;

/** The hub's keys: the one it signs with, and the earlier ones it still trusts (`hub --trusted-keys`). */
export interface HubRecordKeys {
  signer?: CommitSigner;
  trustedKeys?: CommitVerifier;
  /** The full id of an unsigned bindings head the operator vouches for (`hub --adopt-records`). */
  adoptRecords?: string;
  now: () => Date;
}

/** Returns the state with the bindings as the newest record the hub's keys signed says them (unchanged without a signer, or when the head is signed). */
export async function trustHubRecords(
  read: ReadContext,
  state: HubState,
  keys: HubRecordKeys,
): Promise<HubState> {
  const head = state.bindings.head;
  if (keys.signer === undefined || head === null) return state;
  const verify = verifierOf(read, keys);
  const verdict = await verify(head);
  if (verdict.ok) return state;
  if (keys.adoptRecords === head) return adopted(state, head, verdict);
  const trusted = await newestSignedBelow({
    head,
    max: maxRecordWalk,
    parentOf: async (oid) => (await readCommit(read.store, oid)).parents[0],
    verify,
  });
  const ref = state.bindings.ref;
  const branch = ref.replace(/^refs\/heads\//, '');
  const from = await readBindingsAt(read, ref, trusted ?? null);
  const files = await readBindingsFiles(read, trusted ?? null);
  const goesOn =
    trusted === undefined
      ? `no record below it within ${maxRecordWalk} commits is signed by them either: the hub goes on as on a new bindings branch`
      : `the hub goes on from ${trusted.slice(0, 12)}, the newest record it signed`;
  const notAdopted =
    keys.adoptRecords === undefined
      ? ''
      : ` (--adopt-records names ${keys.adoptRecords.slice(0, 12)}, not this head)`;
  const diagnostic: Diagnostic = {
    severity: 'warning',
    code: 'RecordUntrusted',
    subject: `Branch/${branch}`,
    message: `${branch} at ${head.slice(0, 12)}: not signed by the hub's keys (${describeVerdict(verdict)})${notAdopted}: nothing moves on its records; ${goesOn}, and writes a signed record over it`,
  };
  return {
    ...state,
    bindings: { ...state.bindings, ...from, ...files, head },
    recordDiagnostics: [...(state.recordDiagnostics ?? []), diagnostic],
  };
}

// The head the operator vouches for, read as it is; the pass's signed record goes on top of it.
function adopted(state: HubState, head: string, verdict: SignatureVerdict): HubState {
  const branch = state.bindings.ref.replace(/^refs\/heads\//, '');
  const diagnostic: Diagnostic = {
    severity: 'info',
    code: 'RecordAdopted',
    subject: `Branch/${branch}`,
    message: `${branch} at ${head.slice(0, 12)}: not signed by the hub's keys (${describeVerdict(verdict)}), read as the hub's own because --adopt-records names it; the hub writes a signed record over it`,
  };
  return { ...state, recordDiagnostics: [...(state.recordDiagnostics ?? []), diagnostic] };
}

// Verdicts by pass cache and commit: a commit's content never changes.
const verdicts = new WeakMap<object, Map<string, SignatureVerdict>>();

function verifierOf(read: ReadContext, keys: HubRecordKeys): (oid: string) => Promise<SignatureVerdict> {
  let known = verdicts.get(read.cache);
  if (known === undefined) verdicts.set(read.cache, (known = new Map()));
  const memo = known;
  return async (oid) => {
    const seen = memo.get(oid);
    if (seen) return seen;
    const commit = { oid, content: await readCommitBytes(read.store, oid) };
    const at = keys.now();
    let verdict = await (await signerVerifier(keys.signer!)).verify(commit, at);
    if (!verdict.ok && keys.trustedKeys) {
      const earlier = await keys.trustedKeys.verify(commit, at);
      if (earlier.ok || verdict.problem === 'Unsigned') verdict = earlier;
    }
    if (memo.size > 10_000) memo.clear();
    memo.set(oid, verdict);
    return verdict;
  };
}
