// `gitfleet agent --trusted-keys FILE --signing-key FILE`: the keys the cluster branch's head
// must be signed with (the hub's public keys, from the agent's own configuration, never from a
// branch), and the cluster's own key its status and heartbeat commits are signed with
// (docs/security.md).
import type { Logger } from '../../loops/runtime/logger.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import type { CommitVerifier } from '../../adapters/signing/commit-verifier.js';
import { loadSigningKey } from '../../adapters/signing/load-signing-key.js';
import { loadTrustedKeys } from '../../adapters/signing/load-trusted-keys.js';

/** What the agent's signing flags ask for. */
export interface AgentSigningOptions {
  trustedKeys?: string;
  signingKey?: string;
}

/** Returns the signing options of the command line. */
export function agentSigningOf(values: {
  'trusted-keys'?: string | undefined;
  'signing-key'?: string | undefined;
}): AgentSigningOptions {
  return {
    ...(values['trusted-keys'] !== undefined ? { trustedKeys: values['trusted-keys'] } : {}),
    ...(values['signing-key'] !== undefined ? { signingKey: values['signing-key'] } : {}),
  };
}

/** Returns the pass options that verify the branch and sign the status (none without the flags); logs fingerprints and counts, never a key. */
export async function agentKeysOf(
  opts: AgentSigningOptions,
  log: Logger,
): Promise<{ verifier?: CommitVerifier; signer?: CommitSigner }> {
  const keys: { verifier?: CommitVerifier; signer?: CommitSigner } = {};
  if (opts.trustedKeys !== undefined) {
    const trusted = await loadTrustedKeys(opts.trustedKeys);
    keys.verifier = trusted.verifier;
    log.info(
      `applying only commits signed by a trusted key: ${trusted.sshKeys} SSH, ${trusted.openpgpKeys} OpenPGP (${opts.trustedKeys})`,
    );
  }
  if (opts.signingKey !== undefined) {
    keys.signer = await loadSigningKey(opts.signingKey);
    log.info(`signing status and heartbeat commits with ${keys.signer.format} key ${keys.signer.keyId}`);
  }
  return keys;
}
