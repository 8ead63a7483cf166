// OpenPGP keys through openpgp.js (LGPL-3.0-or-later, no runtime dependencies; loaded on first
// use, so commands that never sign or verify do not pay for it). Keys are read from armor;
// a private key protected by a passphrase is refused, as an encrypted SSH key is.
import type { Key, PrivateKey } from 'openpgp';
import { SigningError } from './signing-error.js';

type OpenPgp = typeof import('openpgp');
let loaded: Promise<OpenPgp> | undefined;

/** Returns the openpgp module, imported once. */
export function openpgp(): Promise<OpenPgp> {
  loaded ??= import('openpgp');
  return loaded;
}

const privateBegin = '-----BEGIN PGP PRIVATE KEY BLOCK-----';
const publicBlock = /-----BEGIN PGP PUBLIC KEY BLOCK-----[\s\S]*?-----END PGP PUBLIC KEY BLOCK-----/g;

/** Returns whether the text holds an armored OpenPGP private key. */
export function isOpenPgpPrivateKey(text: string): boolean {
  return text.includes(privateBegin);
}

/** Returns the armored public key blocks of a text, and the text left outside them. */
export function splitOpenPgpPublicKeys(text: string): { blocks: string[]; rest: string } {
  const blocks = text.match(publicBlock) ?? [];
  return { blocks, rest: text.replace(publicBlock, '\n') };
}

/** Returns the decrypted private key of an armored OpenPGP private key; `file` names it in errors. */
export async function readOpenPgpPrivateKey(text: string, file: string): Promise<PrivateKey> {
  const pgp = await openpgp();
  let key: PrivateKey;
  try {
    key = await pgp.readPrivateKey({ armoredKey: text });
  } catch (error) {
    throw new SigningError(
      'InvalidKey',
      `${file}: not a readable OpenPGP private key: ${(error as Error).message}`,
    );
  }
  if (!key.isDecrypted()) {
    throw new SigningError(
      'EncryptedKey',
      `${file}: the OpenPGP private key is protected by a passphrase; gitfleet takes an unprotected key (gpg --export-secret-keys after removing it; keep the file in a Secret)`,
    );
  }
  try {
    await key.getSigningKey();
  } catch (error) {
    throw new SigningError(
      'UnsupportedKey',
      `${file}: OpenPGP key ${key.getFingerprint()} cannot sign now: ${(error as Error).message}`,
    );
  }
  return key;
}

/** Returns the public keys of armored blocks; `file` names them in errors. */
export async function readOpenPgpPublicKeys(blocks: readonly string[], file: string): Promise<Key[]> {
  const pgp = await openpgp();
  const keys: Key[] = [];
  for (const [index, block] of blocks.entries()) {
    try {
      keys.push(...(await pgp.readKeys({ armoredKeys: block })));
    } catch (error) {
      throw new SigningError(
        'InvalidKey',
        `${file}: OpenPGP key block ${index + 1}: ${(error as Error).message}`,
      );
    }
  }
  return keys;
}
