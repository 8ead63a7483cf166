// Ref names git accepts (git-check-ref-format(1)), limited to full names under refs/, which is
// all gitfleet writes.
import { isValidRefName } from '../../core/model/ref-name.js';
import { GitWriteError } from './git-write-error.js';

// The rule itself lives in core, so the loader checks a FleetConfig's branchPrefix with it too.
export { isValidRefName };

/** Throws InvalidRefName unless git would accept the full ref name. */
export function assertValidRefName(ref: string): void {
  if (!isValidRefName(ref)) {
    throw new GitWriteError('InvalidRefName', `${ref}: not a valid full ref name (git check-ref-format)`);
  }
}
