// `gitfleet hub --signing-key FILE`: the key every commit the hub writes is signed with (render,
// tombstone and bindings commits, and with them the eviction and rollout decisions they carry),
// in git's own format, so `git verify-commit` with the published keys accepts them
// (docs/security.md#the-hub-signs-what-it-writes).
import type { FlagSpec } from '../command-line.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import { loadSigningKey } from '../../adapters/signing/load-signing-key.js';
import { loadTrustedKeys } from '../../adapters/signing/load-trusted-keys.js';
import type { CommitVerifier } from '../../adapters/signing/commit-verifier.js';
import type { SourceKeyFlags } from '../../loops/source/source-policy.js';
import { UsageError } from '../usage-error.js';

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
  'trusted-keys': {
    type: 'string',
    value: 'FILE',
    help: "with --signing-key: the hub's earlier public keys (allowed_signers lines or armored OpenPGP public keys) whose records on its branches it still trusts as its own, during a rotation; records no hub key signed are not trusted",
  },
  'adopt-records': {
    type: 'string',
    value: 'COMMIT',
    help: "with --signing-key: the full id of the unsigned bindings head to read as the hub's own on its first signed pass, so placements, evictions and rollouts in progress carry on when signing is turned on; any other unsigned head is not trusted",
  },
} as const satisfies Record<string, FlagSpec>;

/** What the hub's signing flags ask for. */
export interface HubSigningOptions {
  signingKey?: string;
  /** The hub's earlier public keys (--trusted-keys). */
  trustedKeys?: string;
  /** Source verification from the flags. */
  sourceKeys?: SourceKeyFlags;
  /** The unsigned bindings head to adopt (--adopt-records). */
  adoptRecords?: string;
}

/** Returns the signing options of the command line. */
export function hubSigningOf(values: {
  'signing-key'?: string | undefined;
  'trusted-keys'?: string | undefined;
  'adopt-records'?: string | undefined;
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
    ...(values['trusted-keys'] !== undefined ? { trustedKeys: values['trusted-keys'] } : {}),
    ...(values['adopt-records'] !== undefined ? { adoptRecords: values['adopt-records'] } : {}),
    ...(Object.keys(keys).length > 0 ? { sourceKeys: keys } : {}),
  };
}

/** Returns the pass options that sign the hub's commits (none without --signing-key) and trust its earlier keys; logs the keys' fingerprints, never a key. */
export async function hubSignerOf(
  opts: HubSigningOptions,
  log: Logger,
): Promise<{
  signer?: CommitSigner;
  sourceKeys?: SourceKeyFlags;
  trustedKeys?: CommitVerifier;
  adoptRecords?: string;
}> {
  const sourceKeys = opts.sourceKeys ? { sourceKeys: opts.sourceKeys } : {};
  if (opts.signingKey === undefined) {
    const flag =
      opts.trustedKeys !== undefined
        ? 'trusted-keys'
        : opts.adoptRecords !== undefined
          ? 'adopt-records'
          : '';
    if (flag !== '')
      throw new UsageError(
        `--${flag}: only with --signing-key (it says which records the signing hub trusts)`,
      );
    return sourceKeys;
  }
  if (opts.adoptRecords !== undefined && !/^[0-9a-f]{40}$/.test(opts.adoptRecords))
    throw new UsageError(
      `--adopt-records: ${JSON.stringify(opts.adoptRecords)} is not a full commit id (40 hex digits: git rev-parse gitfleet/bindings)`,
    );
  const adopt = opts.adoptRecords !== undefined ? { adoptRecords: opts.adoptRecords } : {};
  const signer = await loadSigningKey(opts.signingKey);
  log.info(`signing the hub's commits with ${signer.format} key ${signer.keyId} (${opts.signingKey})`);
  if (opts.trustedKeys === undefined) return { signer, ...sourceKeys, ...adopt };
  const trusted = await loadTrustedKeys(opts.trustedKeys);
  log.info(
    `trusting the hub's records signed by ${trusted.sshKeys + trusted.openpgpKeys} earlier key(s) of ${opts.trustedKeys} too`,
  );
  return { signer, ...sourceKeys, ...adopt, trustedKeys: trusted.verifier };
}
