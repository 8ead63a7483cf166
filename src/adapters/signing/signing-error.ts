// Why a key, a keys file or a signature could not be used. The subject (the file, or the commit)
// comes first in the message. Never carries key material: a message names a file, a line, a
// fingerprint, never a private key's bytes.
import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type SigningErrorCode =
  /** A key file does not hold a key in a format gitfleet reads (OpenSSH or armored OpenPGP). */
  | 'InvalidKey'
  /** A private key is protected by a passphrase; gitfleet takes unencrypted keys (keep them in a Secret). */
  | 'EncryptedKey'
  /** A key of a type gitfleet does not sign or verify with (only ed25519 for SSH). */
  | 'UnsupportedKey'
  /** A line of an allowed_signers file is not in git's format, or uses an option refused here. */
  | 'InvalidAllowedSigners'
  /** Signing failed (the key does not sign, the library refused). */
  | 'SignFailed';

/** Why a signing key, a trusted keys file or a signature could not be used. Terminal: the same file fails the same way. */
export class SigningError extends GitfleetError<SigningErrorCode> {
  constructor(code: SigningErrorCode, message: string) {
    super(message, { code, terminal: true });
  }
}
