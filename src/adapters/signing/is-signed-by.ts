// Whether a commit carries a signature made with a given signer's key: the key named in the
// signature (an SSH signature's public key, an OpenPGP signature's issuer), not a verification.
// The hub asks it of its own branch heads, to sign again what an older key signed (a rotation).
import type { CommitSigner } from './commit-signer.js';
import { splitSignedCommit } from './commit-payload.js';
import { formatOf } from './commit-verifier.js';
import { openpgp } from './openpgp-keys.js';
import { parseSshsig } from './sshsig.js';

/** Returns whether the commit's signature names the signer's key (false when unsigned or unreadable). */
export async function isSignedBy(content: Uint8Array, signer: CommitSigner): Promise<boolean> {
  const { signature, signatureHeaders } = splitSignedCommit(content);
  if (signature === undefined || signatureHeaders !== 1) return false;
  const format = formatOf(signature);
  if (format !== signer.format) return false;
  try {
    if (format === 'ssh') return parseSshsig(signature).publicKey.fingerprint === signer.keyId;
    const parsed = await (await openpgp()).readSignature({ armoredSignature: signature });
    return parsed.getSigningKeyIDs().some((id) => signer.keyId.endsWith(id.toHex().toUpperCase()));
  } catch {
    return false;
  }
}
