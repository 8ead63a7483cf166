// Signing with an OpenSSH ed25519 key in git's SSH format: what `git commit -S` writes with
// gpg.format=ssh (ssh-keygen -Y sign -n git, sha512).
import type { CommitSigner } from './commit-signer.js';
import type { SshKeyPair } from './ssh-keys.js';
import { signSshsig } from './sshsig.js';

/** Returns a signer of commit payloads with the key pair. */
export function sshSigner(pair: SshKeyPair): CommitSigner {
  return {
    format: 'ssh',
    keyId: pair.publicKey.fingerprint,
    publicKey: `${pair.comment.replace(/[\s,]/g, '') || 'signer'} ${pair.publicKey.type} ${pair.publicKey.blob.toString('base64')}\n`,
    sign(payload) {
      return Promise.resolve(
        signSshsig({
          message: payload,
          namespace: 'git',
          publicKeyBlob: pair.publicKey.blob,
          privateKey: pair.privateKey,
        }),
      );
    },
  };
}
