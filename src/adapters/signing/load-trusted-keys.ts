// Trusted keys (`agent --trusted-keys`, the FleetConfig's allowedSigners and openpgpKeys): one
// text may hold armored OpenPGP public key blocks and, outside them, allowed_signers lines;
// the verifier it gives checks each signature against the keys of its format.
import type { CommitVerifier, FormatVerifier } from './commit-verifier.js';
import { commitVerifier } from './commit-verifier.js';
import { parseAllowedSigners, type AllowedSigner } from './allowed-signers.js';
import { readKeyFile } from './load-signing-key.js';
import { readOpenPgpPublicKeys, splitOpenPgpPublicKeys } from './openpgp-keys.js';
import { openPgpVerifier } from './openpgp-verifier.js';
import { sshVerifier } from './ssh-verifier.js';
import { SigningError } from './signing-error.js';

/** The keys of one or more trusted keys texts, and how many of each kind. */
export interface TrustedKeys {
  verifier: CommitVerifier;
  sshKeys: number;
  openpgpKeys: number;
}

/** One trusted keys text and the name errors give it (a file, or a path in the fleet repository). */
export interface TrustedKeysText {
  text: string;
  source: string;
}

/** Returns the verifier of the keys in `file`. */
export async function loadTrustedKeys(
  file: string,
  options: { principal?: string } = {},
): Promise<TrustedKeys> {
  return trustedKeysOf([{ text: await readKeyFile(file), source: file }], options);
}

/** Returns the verifier of the keys in the given texts; refuses texts that hold no key at all. */
export async function trustedKeysOf(
  texts: readonly TrustedKeysText[],
  options: { principal?: string } = {},
): Promise<TrustedKeys> {
  const signers: AllowedSigner[] = [];
  const pgpKeys = [];
  for (const { text, source } of texts) {
    const { blocks, rest } = splitOpenPgpPublicKeys(text);
    if (text.includes('PRIVATE KEY')) {
      throw new SigningError(
        'InvalidKey',
        `${source}: holds a private key; trusted keys are public keys only`,
      );
    }
    pgpKeys.push(...(await readOpenPgpPublicKeys(blocks, source)));
    signers.push(...parseAllowedSigners(rest, source));
  }
  if (signers.length === 0 && pgpKeys.length === 0) {
    throw new SigningError(
      'InvalidKey',
      `${texts.map((t) => t.source).join(', ')}: no key (allowed_signers lines or armored OpenPGP public keys)`,
    );
  }
  const verifiers: { ssh?: FormatVerifier; openpgp?: FormatVerifier } = {};
  if (signers.length > 0) verifiers.ssh = sshVerifier({ signers, ...options });
  if (pgpKeys.length > 0) verifiers.openpgp = openPgpVerifier(pgpKeys);
  return { verifier: commitVerifier(verifiers), sshKeys: signers.length, openpgpKeys: pgpKeys.length };
}
