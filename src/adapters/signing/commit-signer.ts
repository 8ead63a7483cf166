// The interface the loops sign commits through: given the bytes of an unsigned commit, a signer
// returns the armored signature git puts in its `gpgsig` header. `signCommit` makes the signed
// commit object, byte for byte what `git commit -S` makes for the same payload and signature.
import type { SignatureFormat } from '../../core/model/signature-verdict.js';
import type { GitObject } from '../git/git-object.js';
import { addSignature } from './commit-payload.js';

/** Signs commit payloads with one key. */
export interface CommitSigner {
  readonly format: SignatureFormat;
  /** The key's fingerprint (`SHA256:…` for SSH, 40 hex digits for OpenPGP), for logs and docs. */
  readonly keyId: string;
  /** The public half as a trusted keys text (an allowed_signers line, or the armored OpenPGP public key), to verify what it signed. */
  readonly publicKey: string;
  /** Returns the armored signature of the payload. */
  sign(payload: Uint8Array): Promise<string>;
}

/** Returns the commit signed by `signer`, or the commit itself when there is no signer. */
export async function signCommit(commit: GitObject, signer: CommitSigner | undefined): Promise<GitObject> {
  if (signer === undefined) return commit;
  return addSignature(commit.content, await signer.sign(commit.content));
}
