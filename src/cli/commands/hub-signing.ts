// `gitfleet hub --signing-key FILE`: the key every commit the hub writes is signed with (render,
// tombstone and bindings commits, and with them the eviction and rollout decisions they carry),
// in git's own format, so `git verify-commit` with the published keys accepts them
// (docs/security.md#the-hub-signs-what-it-writes).
import type { FlagSpec } from '../command-line.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import { loadSigningKey } from '../../adapters/signing/load-signing-key.js';

/** The hub's signing flag. */
export const hubSigningFlags = {
  'signing-key': {
    type: 'string',
    value: 'FILE',
    help: 'sign every commit the hub writes with this key: an OpenSSH ed25519 private key or an armored OpenPGP private key, unencrypted (a mounted Secret); docs/security.md',
  },
} as const satisfies Record<string, FlagSpec>;

/** What the hub's signing flags ask for. */
export interface HubSigningOptions {
  signingKey?: string;
}

/** Returns the signing options of the command line. */
export function hubSigningOf(values: { 'signing-key'?: string | undefined }): HubSigningOptions {
  return values['signing-key'] !== undefined ? { signingKey: values['signing-key'] } : {};
}

/** Returns the pass options that sign the hub's commits (none without --signing-key); logs the key's fingerprint, never the key. */
export async function hubSignerOf(opts: HubSigningOptions, log: Logger): Promise<{ signer?: CommitSigner }> {
  if (opts.signingKey === undefined) return {};
  const signer = await loadSigningKey(opts.signingKey);
  log.info(`signing the hub's commits with ${signer.format} key ${signer.keyId} (${opts.signingKey})`);
  return { signer };
}
