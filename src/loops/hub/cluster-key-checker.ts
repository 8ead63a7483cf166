// How the hub checks a commit an agent wrote (a status report, a heartbeat) against the key the
// cluster's registration names (gitfleet.io/signing-key, docs/onboarding.md): one SSH key line,
// the cluster's name its principal, namespace `git`, as `git verify-commit` checks it with an
// allowed_signers file of that one line. Each key's verifier is made once per checker.
import type { SignatureVerdict } from '../../core/model/signature-verdict.js';
import type { CommitVerifier } from '../../adapters/signing/commit-verifier.js';
import { trustedKeysOf } from '../../adapters/signing/load-trusted-keys.js';
import { committedAt as committedAtOf } from '../../adapters/git/parse-commit.js';

/** A commit's verdict under its cluster's key, and the time its committer line gives. */
export interface ClusterCommitCheck {
  verdict: SignatureVerdict;
  committedAt: Date;
}

/** Checks commits against clusters' registered keys. */
export type ClusterKeyChecker = (input: {
  cluster: string;
  key: string;
  commit: { oid: string; content: Uint8Array };
}) => Promise<ClusterCommitCheck>;

/** Returns a checker that makes each cluster key's verifier once. */
export function clusterKeyChecker(): ClusterKeyChecker {
  const verifiers = new Map<string, Promise<CommitVerifier>>();
  return async ({ cluster, key, commit }) => {
    const id = `${cluster}\0${key}`;
    let verifier = verifiers.get(id);
    if (!verifier) {
      verifier = trustedKeysOf([
        { text: `${cluster} ${key}\n`, source: `the registration of ${cluster} (gitfleet.io/signing-key)` },
      ]).then((keys) => keys.verifier);
      verifiers.set(id, verifier);
    }
    const committedAt = committedAtOf(commit.content);
    // Judged at the commit's own time, as git verify-commit judges a key's validity.
    return { verdict: await (await verifier).verify(commit, committedAt), committedAt };
  };
}
