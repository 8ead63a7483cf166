// `gitfleet hub --signing-key FILE`: the key every commit the hub writes is signed with (render,
// tombstone and bindings commits, and with them the eviction and rollout decisions they carry),
// in git's own format, so `git verify-commit` with the published keys accepts them
// (docs/security.md#the-hub-signs-what-it-writes).
import type { FlagSpec } from '../command-line.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import { loadSigningKey } from '../../adapters/signing/load-signing-key.js';
import type { SourceKeyFlags } from '../../loops/shared/source-policy.js';

/** The hub's signing and source verification flags. */
export const hubSigningFlags = {
  'source-allowed-signers': {
    type: 'string',
    value: 'FILE',
    help: "verify source commits against these SSH keys (git's allowed_signers format) from outside the repository; with the FleetConfig's spec.sourceVerification or alone (docs/security.md)",
  },
  'source-openpgp-keys': {
    type: 'string',
    value: 'FILE',
    help: 'verify source commits against these armored OpenPGP public keys, as --source-allowed-signers',
  },
  'source-verification': {
    type: 'string',
    choices: ['head', 'strict'],
    help: 'the mode of source verification when the FleetConfig does not say: head (the rendered commit is signed) or strict (every commit since the last verified one)',
  },
  'signing-key': {
    type: 'string',
    value: 'FILE',
    help: 'sign every commit the hub writes with this key: an OpenSSH ed25519 private key or an armored OpenPGP private key, unencrypted (a mounted Secret); docs/security.md',
  },
} as const satisfies Record<string, FlagSpec>;

/** What the hub's signing flags ask for. */
export interface HubSigningOptions {
  signingKey?: string;
  /** Source verification from the flags. */
  sourceKeys?: SourceKeyFlags;
}

/** Returns the signing options of the command line. */
export function hubSigningOf(values: {
  'signing-key'?: string | undefined;
  'source-allowed-signers'?: string | undefined;
  'source-openpgp-keys'?: string | undefined;
  'source-verification'?: 'head' | 'strict' | undefined;
}): HubSigningOptions {
  const keys: SourceKeyFlags = {
    ...(values['source-allowed-signers'] !== undefined
      ? { allowedSigners: values['source-allowed-signers'] }
      : {}),
    ...(values['source-openpgp-keys'] !== undefined ? { openpgpKeys: values['source-openpgp-keys'] } : {}),
    ...(values['source-verification'] !== undefined ? { mode: values['source-verification'] } : {}),
  };
  return {
    ...(values['signing-key'] !== undefined ? { signingKey: values['signing-key'] } : {}),
    ...(Object.keys(keys).length > 0 ? { sourceKeys: keys } : {}),
  };
}

/** Returns the pass options that sign the hub's commits (none without --signing-key); logs the key's fingerprint, never the key. */
export async function hubSignerOf(
  opts: HubSigningOptions,
  log: Logger,
): Promise<{ signer?: CommitSigner; sourceKeys?: SourceKeyFlags }> {
  const sourceKeys = opts.sourceKeys ? { sourceKeys: opts.sourceKeys } : {};
  if (opts.signingKey === undefined) return sourceKeys;
  const signer = await loadSigningKey(opts.signingKey);
  log.info(`signing the hub's commits with ${signer.format} key ${signer.keyId} (${opts.signingKey})`);
  return { signer, ...sourceKeys };
}
