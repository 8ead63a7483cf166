// OpenPGP signatures checked as `git verify-commit` checks them with gpg, against public keys
// the caller trusts: the issuer must be one of them, the signature must match the payload, and
// the signing key must be valid (not expired, not revoked) both when it signed and at the time
// of the check, which is the checker's clock, not a time the signer wrote. A signature made up
// to ten minutes after that clock (a signer's clock ahead of the checker's) is accepted.
import type { Key, Signature } from 'openpgp';
import type { SignatureProblem, SignatureSigner } from '../../core/model/signature-verdict.js';
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
        const detail = `the OpenPGP signature: ${(error as Error).message}`;
        return { ok: false, commit, problem: 'Malformed', detail, signer: undefined };
      }
      const issuers = parsed.getSigningKeyIDs().map((id) => id.toHex().toUpperCase());
      const key = keys.find((k) => k.getKeyIDs().some((id) => issuers.includes(id.toHex().toUpperCase())));
      if (key === undefined) {
        const keyId = issuers.join(', ') || 'no issuer';
        const signer: SignatureSigner = { format: 'openpgp', keyId, names: [] };
        const detail = `key ${keyId} is not among the trusted OpenPGP keys`;
        return { ok: false, commit, problem: 'UnknownKey', detail, signer };
      }
      const signer: SignatureSigner = {
        format: 'openpgp',
        keyId: key.getFingerprint().toUpperCase(),
        names: key.getUserIDs(),
      };
      const refusal = await refusalOf(pgp, { key, parsed, payload, at });
      return refusal
        ? { ok: false, commit, problem: refusal[0], detail: refusal[1], signer }
        : { ok: true, commit, signer };
    },
  };
}

/** Why openpgp.js refuses the signature by the key, or the key at `at`; undefined when both hold. */
async function refusalOf(
  pgp: Awaited<ReturnType<typeof openpgp>>,
  input: { key: Key; parsed: Signature; payload: Buffer; at: Date },
): Promise<[SignatureProblem, string] | undefined> {
  const { key, at } = input;
  try {
    const message = await pgp.createMessage({ binary: input.payload });
    const result = await pgp.verify({
      message,
      signature: input.parsed,
      verificationKeys: [key],
      date: new Date(at.getTime() + clockSkewMs),
      expectSigned: true,
    });
    await Promise.all(result.signatures.map((s) => s.verified));
  } catch (error) {
    return classify((error as Error).message);
  }
  try {
    await key.getSigningKey(undefined, at);
  } catch (error) {
    return classify((error as Error).message);
  }
  return undefined;
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
