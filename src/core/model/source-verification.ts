// Source verification (FleetConfig `spec.sourceVerification`, docs/security.md#source-commits):
// which keys may sign the source commits the hub renders, and how many commits must carry a
// good signature. The trailers the hub writes on its bindings commits to remember what it
// verified and what it refused, and the seal a person writes to start a strict walk from.

/** `head`: the commit rendered must be signed; `strict`: every commit since the last verified one, merged ones too. */
export type SourceVerificationMode = 'head' | 'strict';

/** The policy: the mode, and where the keys are in the fleet repository (paths from its root). */
export interface SourceVerification {
  mode: SourceVerificationMode;
  /** git's allowed_signers format. */
  allowedSigners?: string;
  /** Armored OpenPGP public keys. */
  openpgpKeys?: string;
}

/** On a bindings commit: the source commit it renders was verified (`<commit> <signer>`); the next verification starts from it. */
export const sourceVerifiedTrailer = 'Gitfleet-Source-Verified';

/** On a bindings commit: the source head was refused (`<commit>: <verdict>`); its render is the last good one. */
export const sourceRefusedTrailer = 'Gitfleet-Source-Refused';

/**
 * On a source commit with a good signature: strict mode does not look at its ancestors (they
 * are vouched for by its signer), so a repository with unsigned history can start verifying.
 */
export const sealTrailer = 'Gitfleet-Verification-Seal';
