// With `agent --trusted-keys`, the agent applies only what the hub signed: before anything is
// applied or pruned, the cluster branch's head must carry a good signature by one of the keys
// the agent was given (never keys read from the branch). A head that does not is reported as
// `unverified`: nothing is applied, nothing deleted, what runs in the cluster stays as it is,
// and the status and the log say which commit and why (docs/security.md#agents-apply-only-what-the-hub-signed).
import { withCache } from '../../adapters/git/read-git-object.js';
import { readCommitBytes } from '../../adapters/git/read-typed-object.js';
import { isGitfleetError } from '../../core/model/gitfleet-error.js';
import type { CommitVerifier } from '../../adapters/signing/commit-verifier.js';
import { describeVerdict, type SignatureVerdict } from '../../core/model/signature-verdict.js';
import type { Clock } from '../runtime/clock.js';
import type { BranchRead } from './read-cluster-branch.js';

/** Returns the branch as read when its head is signed by a trusted key (or nothing is to be verified), else `unverified` with the verdict. */
export async function verifyBranchHead(
  opts: { verifier?: CommitVerifier; gitdir: string; clock: Clock },
  branch: BranchRead,
): Promise<BranchRead> {
  if (opts.verifier === undefined || branch.type === 'missing' || branch.type === 'unverified') return branch;
  const verdict = await verifyCommit(opts.verifier, opts.gitdir, branch.commit, opts.clock);
  return verdict.ok
    ? branch
    : { type: 'unverified', commit: branch.commit, message: branch.message, verdict };
}

/** Returns the verdict on one commit of the repository, judged at the clock's time. */
export async function verifyCommit(
  verifier: CommitVerifier,
  gitdir: string,
  oid: string,
  clock: Clock,
): Promise<SignatureVerdict> {
  let content: Uint8Array;
  try {
    content = await readCommitBytes(withCache({ gitdir }), oid);
  } catch (error) {
    if (!isGitfleetError(error, 'WrongObjectType')) throw error;
    return { ok: false, commit: oid, problem: 'Malformed', detail: error.message, signer: undefined };
  }
  return verifier.verify({ oid, content }, new Date(clock.now()));
}

/** Returns a check of commits (the deletion allowance's bindings commits): the verdict in words when one is not signed by a trusted key, else undefined. */
export function describeUnsigned(
  verifier: CommitVerifier,
  gitdir: string,
  clock: Clock,
): (oid: string) => Promise<string | undefined> {
  return async (oid) => {
    const verdict = await verifyCommit(verifier, gitdir, oid, clock);
    return verdict.ok ? undefined : describeVerdict(verdict);
  };
}
