// What checking one commit's signature found, as data: the hub's source verification, the
// agent's check of its cluster branch and the hub's check of status reports all speak it, and
// their logs, conditions, metrics and records say it the same way (`describeVerdict`).

/** How a signature is made: git's gpg.format values gitfleet reads. */
export type SignatureFormat = 'ssh' | 'openpgp';

/** Why a commit's signature is not accepted. */
export type SignatureProblem =
  /** The commit carries no signature. */
  | 'Unsigned'
  /** The signature block does not parse, is too large, or the commit carries several. */
  | 'Malformed'
  /** A signature of a kind gitfleet does not verify (x509, an unknown armor). */
  | 'UnsupportedFormat'
  /** Signed by a key that is not among the trusted ones (a revoked key is one removed from them). */
  | 'UnknownKey'
  /** Signed by a trusted key whose type gitfleet does not verify (SSH: ed25519 only). */
  | 'UnsupportedKey'
  /** The signature does not match the commit: the commit was changed, or the signature copied from another. */
  | 'BadSignature'
  /** An SSH signature made for another namespace than "git", or a key not allowed in that namespace. */
  | 'WrongNamespace'
  /** The key's validity ended before the time of the check. */
  | 'KeyExpired'
  /** The key carries a revocation (OpenPGP); an SSH key is revoked by removing it from allowed_signers. */
  | 'KeyRevoked'
  /** The key's validity has not started at the time of the check. */
  | 'KeyNotYetValid'
  /** The key is valid but not for this purpose (another principal than the one required). */
  | 'WrongSigner';

/** Who made a signature: the key's fingerprint and the names the trusted keys give it. */
export interface SignatureSigner {
  format: SignatureFormat;
  /** `SHA256:…` for an SSH key, the 40-hex fingerprint for an OpenPGP key. */
  keyId: string;
  /** The principals (SSH) or user ids (OpenPGP) of the trusted key; empty when the key is unknown. */
  names: string[];
}

/** The verdict on one commit's signature. */
export type SignatureVerdict =
  | { ok: true; commit: string; signer: SignatureSigner }
  | {
      ok: false;
      commit: string;
      problem: SignatureProblem;
      detail: string;
      signer: SignatureSigner | undefined;
    };

/** Returns the verdict in words, commit first: `commit 1a2b3c4: unsigned`, `commit …: signed by …: <detail>`. */
export function describeVerdict(verdict: SignatureVerdict): string {
  const commit = `commit ${verdict.commit.slice(0, 12)}`;
  if (verdict.ok)
    return `${commit}: good ${verdict.signer.format} signature by ${describeSigner(verdict.signer)}`;
  if (verdict.problem === 'Unsigned') return `${commit}: unsigned`;
  const by = verdict.signer ? ` by ${describeSigner(verdict.signer)}` : '';
  return `${commit}: ${verdict.problem}${by}: ${verdict.detail}`;
}

/** Returns `name, name (key)` or the key alone when it has no names. */
export function describeSigner(signer: SignatureSigner): string {
  return signer.names.length > 0 ? `${signer.names.join(', ')} (${signer.keyId})` : signer.keyId;
}
