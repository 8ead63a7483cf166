// The hub's source verification as a review sees it (`gitfleet validate --ref`, `gitfleet diff`):
// the same policy, keys and walk, on a commit before it is merged. For a diff the base is the
// last verified commit (the policy and the keys are read from it, and strict mode walks from it),
// as the hub will see the head once it is merged; validate reads them from the commit itself.
import { readGitSource } from '../../adapters/source/read-git-commit.js';
import { findLocalGitdir } from '../../adapters/source/find-local-gitdir.js';
import { readFleetConfig } from '../../core/load/load-fleet.js';
import { sourcePolicyOf, type SourceKeyFlags } from './source-policy.js';
import { sourceReader } from './source-reader.js';
import { verifySource } from './verify-source.js';

/** The verdict for a review: an error when the hub would refuse the commit, else information. */
export interface SignatureReview {
  severity: 'info' | 'error';
  message: string;
  /** Whether a policy is in force (the FleetConfig's or the flags'). */
  verifying: boolean;
}

/** Returns what the hub's source verification says of `head` (with `base` as the last verified commit, when given). */
export async function reviewSourceSignatures(input: {
  dir: string;
  head: string;
  base?: string;
  flags?: SourceKeyFlags;
  at: Date;
}): Promise<SignatureReview> {
  const gitdir = findLocalGitdir(input.dir) ?? input.dir;
  const keysCommit = input.base ?? input.head;
  const { files } = await readGitSource({ dir: input.dir, ref: keysCommit });
  const reader = sourceReader(gitdir);
  const policy = await sourcePolicyOf({
    policy: readFleetConfig(files).sourceVerification,
    flags: input.flags ?? {},
    reader,
    keysCommit,
  });
  if (policy === undefined)
    return {
      severity: 'info',
      message: 'source commits are not verified (no spec.sourceVerification in the FleetConfig)',
      verifying: false,
    };
  const verdict = await verifySource({
    reader,
    policy,
    head: input.head,
    ...(input.base ? { anchor: input.base } : {}),
    at: input.at,
  });
  if (verdict.type === 'refused')
    return {
      severity: 'error',
      message: `the hub would refuse this commit: ${verdict.reason}`,
      verifying: true,
    };
  const commits = verdict.checked === 1 ? '1 commit' : `${verdict.checked} commits`;
  return {
    severity: 'info',
    message: `signatures verified (${verdict.mode}, ${commits}, keys from ${policy.keysFrom}): good signature by ${verdict.signer}`,
    verifying: true,
  };
}
