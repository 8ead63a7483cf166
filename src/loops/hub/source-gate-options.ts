// What the hub's pass hands its source verification (hub-source-gate.ts) and the records it keeps
// on the bindings branch (source-gate-records.ts).
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import type { CommitVerifier } from '../../adapters/signing/commit-verifier.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import type { Logger } from '../runtime/logger.js';
import type { SourceKeyFlags } from '../source/source-policy.js';

/** What the hub's pass needs for source verification. */
export interface SourceGateOptions {
  repo: HubRepo;
  /** Keys and mode from the hub's flags (outside the repository); absent: the FleetConfig's alone. */
  sourceKeys?: SourceKeyFlags;
  signer?: CommitSigner;
  /** The hub's earlier keys (`hub --trusted-keys`): a record they signed counts as the hub's during a rotation. */
  trustedKeys?: CommitVerifier;
  identity: { name: string; email: string };
  now: () => Date;
  log: Logger;
}
