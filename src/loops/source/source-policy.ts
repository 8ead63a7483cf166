// Which keys verify the source, and how strictly (docs/security.md#source-commits). Keys the
// hub was given by its flags (--source-allowed-signers, --source-openpgp-keys) come first: they
// are outside the repository. Otherwise the FleetConfig's `spec.sourceVerification` names key
// files in the repository, read from the last commit the hub verified, never from the commit
// being verified (an unsigned commit cannot bring its own keys); only before anything was
// verified are they read from the commit itself (trust on first use, said in the hub's log).
import type { CommitVerifier } from '../../adapters/signing/commit-verifier.js';
import { readKeyFile } from '../../adapters/signing/load-signing-key.js';
import { trustedKeysOf, type TrustedKeysText } from '../../adapters/signing/load-trusted-keys.js';
import { SigningError } from '../../adapters/signing/signing-error.js';
import type { SourceVerification, SourceVerificationMode } from '../../core/model/source-verification.js';
import type { SourceReader } from './source-reader.js';

/** Source verification asked for on the command line: key files on the hub's disk, and the mode. */
export interface SourceKeyFlags {
  allowedSigners?: string;
  openpgpKeys?: string;
  mode?: SourceVerificationMode;
}

/** The policy in force: its mode, the verifier of its keys, and where the keys came from (for messages). */
export interface SourcePolicy {
  mode: SourceVerificationMode;
  verifier: CommitVerifier;
  keysFrom: string;
}

/** Returns the policy in force, undefined when source commits are not verified. */
export async function sourcePolicyOf(input: {
  /** The FleetConfig's policy of the commit the keys are read from (the last verified one, else the head). */
  policy: SourceVerification | undefined;
  flags: SourceKeyFlags;
  reader: SourceReader;
  keysCommit: string;
}): Promise<SourcePolicy | undefined> {
  const { policy, flags } = input;
  const mode = flags.mode ?? policy?.mode ?? 'head';
  if (flags.allowedSigners !== undefined || flags.openpgpKeys !== undefined) {
    const texts: TrustedKeysText[] = [];
    for (const file of [flags.allowedSigners, flags.openpgpKeys])
      if (file !== undefined) texts.push({ text: await readKeyFile(file), source: file });
    return {
      mode,
      verifier: (await trustedKeysOf(texts)).verifier,
      keysFrom: texts.map((t) => t.source).join(', '),
    };
  }
  if (policy === undefined && flags.mode === undefined) return undefined;
  const paths = [policy?.allowedSigners, policy?.openpgpKeys].filter((p): p is string => p !== undefined);
  const at = input.keysCommit.slice(0, 12);
  if (paths.length === 0) {
    throw new SigningError(
      'InvalidKey',
      `spec.sourceVerification: names no key file (allowedSigners, openpgpKeys), and the hub has no --source-allowed-signers or --source-openpgp-keys`,
    );
  }
  const texts: TrustedKeysText[] = [];
  for (const path of paths) {
    const text = await input.reader.file(input.keysCommit, path);
    if (text === undefined)
      throw new SigningError(
        'InvalidKey',
        `${path}@${at}: the key file spec.sourceVerification names is not in commit ${at}`,
      );
    texts.push({ text, source: `${path}@${at}` });
  }
  return {
    mode,
    verifier: (await trustedKeysOf(texts)).verifier,
    keysFrom: texts.map((t) => t.source).join(', '),
  };
}
