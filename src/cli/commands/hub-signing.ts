// `gitfleet hub --signing-key FILE`: the key every commit the hub writes is signed with (render,
// tombstone and bindings commits, and with them the eviction and rollout decisions they carry),
// in git's own format, so `git verify-commit` with the published keys accepts them
// (docs/security.md#the-hub-signs-what-it-writes).
import type { Logger } from '../../loops/runtime/logger.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import { loadSigningKey } from '../../adapters/signing/load-signing-key.js';
import { loadTrustedKeys } from '../../adapters/signing/load-trusted-keys.js';
import type { CommitVerifier } from '../../adapters/signing/commit-verifier.js';
import type { SourceKeyFlags } from '../../loops/source/source-policy.js';
import { UsageError } from '../usage-error.js';

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
