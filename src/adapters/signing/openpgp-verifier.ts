// OpenPGP signatures checked as `git verify-commit` checks them with gpg, against public keys
// the caller trusts: the issuer must be one of them, the signature must match the payload, and
// the signing key must be valid (not expired, not revoked) both when it signed and at the time
// of the check, which is the checker's clock, not a time the signer wrote. A signature made up
// to ten minutes after that clock (a signer's clock ahead of the checker's) is accepted.
import type { Key, Signature } from 'openpgp';
import type {
  SignatureProblem,
  SignatureSigner,
  SignatureVerdict,
} from '../../core/model/signature-verdict.js';
import type { FormatVerifier } from './commit-verifier.js';
import { openpgp } from './openpgp-keys.js';

const clockSkewMs = 10 * 60_000;

/** Returns the verifier of OpenPGP signatures against the given public keys. */
export function openPgpVerifier(keys: readonly Key[]): FormatVerifier {
  return {
    async verifySignature({ commit, payload, signature, at }) {
      const pgp = await openpgp();
      let parsed: Signature;
      try {
        parsed = await pgp.readSignature({ armoredSignature: signature });
      } catch (error) {
        return {
          ok: false,
          commit,
          problem: 'Malformed',
          detail: `the OpenPGP signature: ${(error as Error).message}`,
          signer: undefined,
        };
      }
      const issuers = parsed.getSigningKeyIDs().map((id) => id.toHex().toUpperCase());
      const key = keys.find((k) => k.getKeyIDs().some((id) => issuers.includes(id.toHex().toUpperCase())));
      if (key === undefined) {
        const signer: SignatureSigner = {
          format: 'openpgp',
          keyId: issuers.join(', ') || 'no issuer',
          names: [],
        };
        return {
          ok: false,
          commit,
          problem: 'UnknownKey',
          detail: `key ${signer.keyId} is not among the trusted OpenPGP keys`,
          signer,
        };
      }
      const signer: SignatureSigner = {
        format: 'openpgp',
        keyId: key.getFingerprint().toUpperCase(),
        names: key.getUserIDs(),
      };
      const refuse = (problem: SignatureProblem, detail: string): SignatureVerdict => ({
        ok: false,
        commit,
        problem,
        detail,
        signer,
      });
      try {
        const message = await pgp.createMessage({ binary: payload });
        const result = await pgp.verify({
          message,
          signature: parsed,
          verificationKeys: [key],
          date: new Date(at.getTime() + clockSkewMs),
          expectSigned: true,
        });
        await Promise.all(result.signatures.map((s) => s.verified));
      } catch (error) {
        return refuse(...classify((error as Error).message));
      }
      try {
        await key.getSigningKey(undefined, at);
      } catch (error) {
        return refuse(...classify((error as Error).message));
      }
      return { ok: true, commit, signer };
    },
  };
}

// openpgp.js says why in words only.
function classify(message: string): [SignatureProblem, string] {
  if (/revoked/i.test(message)) return ['KeyRevoked', message];
  if (/expired/i.test(message)) return ['KeyExpired', message];
  if (/in the future|newer than the signature/i.test(message)) return ['KeyNotYetValid', message];
  return [
    'BadSignature',
    `the signature does not match the commit (changed, or copied from another commit): ${message}`,
  ];
}
