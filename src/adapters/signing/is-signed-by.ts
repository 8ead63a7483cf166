// Which key a commit's signature names: an SSH signature's public key, an OpenPGP signature's
// issuer; read, not verified. The hub asks it of its own branch heads, to sign again what an
// older key signed (a rotation), and of a change rolled out, to tell its signer from its approver.
import type { CommitSigner } from './commit-signer.js';
import { splitSignedCommit } from './commit-payload.js';
import { formatOf } from './commit-verifier.js';
import { openpgp } from './openpgp-keys.js';
import { parseSshsig } from './sshsig.js';

/** Returns whether the commit's signature names the signer's key (false when unsigned or unreadable). */
export async function isSignedBy(content: Uint8Array, signer: CommitSigner): Promise<boolean> {
  const named = await signatureKeyIds(content);
  if (named === undefined || named.format !== signer.format) return false;
  if (named.format === 'ssh') return named.keyIds[0] === signer.keyId;
  return named.keyIds.some((id) => signer.keyId.endsWith(id));
}

/**
 * Returns the key ids a commit's one signature names (an SSH key's `SHA256:…` fingerprint, the
 * upper-case hex ids of an OpenPGP signature's issuers), undefined when unsigned or unreadable.
 */
export async function signatureKeyIds(
  content: Uint8Array,
): Promise<{ format: 'ssh' | 'openpgp'; keyIds: string[] } | undefined> {
  const { signature, signatureHeaders } = splitSignedCommit(content);
  if (signature === undefined || signatureHeaders !== 1) return undefined;
  const format = formatOf(signature);
  try {
    if (format === 'ssh') return { format, keyIds: [parseSshsig(signature).publicKey.fingerprint] };
    if (format !== 'openpgp') return undefined;
    const parsed = await (await openpgp()).readSignature({ armoredSignature: signature });
    return { format, keyIds: parsed.getSigningKeyIDs().map((id) => id.toHex().toUpperCase()) };
  } catch {
    return undefined;
  }
}
