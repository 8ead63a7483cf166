// The interface the loops verify commits through, and the part every verifier shares: a
// commit is split into its payload and signature (commit-payload.ts), a missing, oversized,
// repeated or unreadable block is judged here, and the signature goes to the verifier of its
// format: SSH (allowed_signers) or OpenPGP (public keys).
import type { SignatureFormat, SignatureVerdict } from '../../core/model/signature-verdict.js';
import { maxSignatureBytes, splitSignedCommit } from './commit-payload.js';

/** A commit to verify: its id and its object content. */
export interface CommitToVerify {
  oid: string;
  content: Uint8Array;
}

/** Verifies commits' signatures against keys the caller trusts. */
export interface CommitVerifier {
  /** Returns the verdict on the commit's signature, judging key validity at `at`. */
  verify(commit: CommitToVerify, at: Date): Promise<SignatureVerdict>;
}

/** Verifies one format's signature over a payload. */
export interface FormatVerifier {
  verifySignature(input: {
    commit: string;
    payload: Buffer;
    signature: string;
    at: Date;
  }): Promise<SignatureVerdict>;
}

/** Returns a verifier that sends each signature to the verifier of its format; a format without one is UnknownKey. */
export function commitVerifier(verifiers: Partial<Record<SignatureFormat, FormatVerifier>>): CommitVerifier {
  return {
    async verify(commit, at) {
      const { payload, signature, signatureHeaders } = splitSignedCommit(commit.content);
      const refuse = (
        problem: 'Unsigned' | 'Malformed' | 'UnsupportedFormat' | 'UnknownKey',
        detail: string,
      ): SignatureVerdict => ({ ok: false, commit: commit.oid, problem, detail, signer: undefined });
      if (signature === undefined) return refuse('Unsigned', 'the commit carries no signature');
      if (signatureHeaders > 1)
        return refuse('Malformed', `the commit carries ${signatureHeaders} signature headers`);
      const bytes = Buffer.byteLength(signature);
      if (bytes > maxSignatureBytes) {
        return refuse(
          'Malformed',
          `a signature block of ${bytes} bytes, over the ${maxSignatureBytes}-byte limit`,
        );
      }
      const format = formatOf(signature);
      if (format === undefined)
        return refuse('UnsupportedFormat', 'the signature is neither SSH nor OpenPGP');
      const verifier = verifiers[format];
      if (verifier === undefined)
        return refuse('UnknownKey', `an ${format} signature, and no ${format} key is trusted`);
      return verifier.verifySignature({ commit: commit.oid, payload, signature, at });
    },
  };
}

/** Returns the format of an armored signature, from its first line. */
export function formatOf(signature: string): SignatureFormat | undefined {
  const first = signature.trimStart().split('\n', 1)[0]?.trim();
  if (first === '-----BEGIN SSH SIGNATURE-----') return 'ssh';
  if (first === '-----BEGIN PGP SIGNATURE-----') return 'openpgp';
  return undefined;
}
