// The hub's test for a write that lost to another writer: the pass reads again and runs again
// (hub-pass.ts), and a render repository where it happened is read again first
// (render-repositories.ts).
import { GitWriteError } from '../../adapters/git/git-write-error.js';
import { isGitfleetError } from '../../core/model/gitfleet-error.js';

/**
 * Whether another writer moved a ref first: a local compare-and-swap that found another value
 * or a held lock (GitWriteError RefConflict, RefLocked), or a push the remote rejected because
 * its ref moved (the remote adapter's PushRejected).
 */
export function isLostRace(error: unknown): boolean {
  if (error instanceof GitWriteError) return error.code === 'RefConflict' || error.code === 'RefLocked';
  return isGitfleetError(error, 'PushRejected');
}
