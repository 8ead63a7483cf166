// Signing with an OpenPGP key as `gpg -bsau <key>` signs for git: a detached, armored signature
// over the payload as binary data.
import type { PrivateKey } from 'openpgp';
import type { CommitSigner } from './commit-signer.js';
import { openpgp } from './openpgp-keys.js';
import { SigningError } from './signing-error.js';

/** Returns a signer of commit payloads with the (decrypted) private key. */
export function openPgpSigner(key: PrivateKey): CommitSigner {
  return {
    format: 'openpgp',
    keyId: key.getFingerprint().toUpperCase(),
    publicKey: key.toPublic().armor(),
    async sign(payload) {
      const pgp = await openpgp();
      try {
        const message = await pgp.createMessage({ binary: payload });
        const signature = await pgp.sign({ message, signingKeys: key, detached: true, format: 'armored' });
        return signature.endsWith('\n') ? signature : `${signature}\n`;
      } catch (error) {
        throw new SigningError(
          'SignFailed',
          `OpenPGP key ${key.getFingerprint()}: signing failed: ${(error as Error).message}`,
        );
      }
    },
  };
}
