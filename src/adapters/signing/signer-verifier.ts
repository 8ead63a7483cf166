// The verifier of what one signer signed: its own public key, and nothing else. The hub checks
// with it that a record it reads back from its branches (the last verified source commit) is
// one it signed, cryptographically, not just a signature that names its key: a signature
// copied from one of its commits onto a forged one names the key too.
import type { CommitSigner } from './commit-signer.js';
import type { CommitVerifier } from './commit-verifier.js';
import { trustedKeysOf } from './load-trusted-keys.js';

const verifiers = new WeakMap<CommitSigner, Promise<CommitVerifier>>();

/** Returns the verifier of the signer's own public key (made once per signer). */
export function signerVerifier(signer: CommitSigner): Promise<CommitVerifier> {
  let verifier = verifiers.get(signer);
  if (verifier === undefined) {
    verifier = trustedKeysOf([{ text: signer.publicKey, source: `the key ${signer.keyId}` }]).then(
      (keys) => keys.verifier,
    );
    verifiers.set(signer, verifier);
  }
  return verifier;
}
