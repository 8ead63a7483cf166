// A signing key from a file (`hub --signing-key`, `agent --signing-key`): an OpenSSH ed25519
// private key, or an armored OpenPGP private key, told apart by their armor. The key stays in
// memory; nothing of it reaches a log or an error.
import { readFile } from 'node:fs/promises';
import type { CommitSigner } from './commit-signer.js';
import { isOpenPgpPrivateKey, readOpenPgpPrivateKey } from './openpgp-keys.js';
import { openPgpSigner } from './openpgp-signer.js';
import { isOpensshPrivateKey, parseOpensshPrivateKey } from './ssh-keys.js';
import { sshSigner } from './ssh-signer.js';
import { SigningError } from './signing-error.js';

const maxKeyFileBytes = 1024 * 1024;

/** Returns the signer of the key held in `file`. */
export async function loadSigningKey(file: string): Promise<CommitSigner> {
  return signerOfText(await readKeyFile(file), file);
}

/** Returns the signer of a key's text (from a file or a Secret); `source` names it in errors. */
export async function signerOfText(text: string, source: string): Promise<CommitSigner> {
  if (isOpensshPrivateKey(text)) return sshSigner(parseOpensshPrivateKey(text, source));
  if (isOpenPgpPrivateKey(text)) return openPgpSigner(await readOpenPgpPrivateKey(text, source));
  throw new SigningError(
    'InvalidKey',
    `${source}: neither an OpenSSH private key nor an armored OpenPGP private key (a public key, or a PEM key, is not a signing key)`,
  );
}

/** Returns a key file's text, refusing one over 1 MiB (no key is that large). */
export async function readKeyFile(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new SigningError(
      'InvalidKey',
      `${file}: cannot read the key file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (bytes.length > maxKeyFileBytes) {
    throw new SigningError(
      'InvalidKey',
      `${file}: ${bytes.length} bytes, over the ${maxKeyFileBytes}-byte limit of a key file`,
    );
  }
  return bytes.toString('utf8');
}
