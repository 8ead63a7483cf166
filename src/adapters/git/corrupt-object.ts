// isomorphic-git reports an object whose bytes are damaged (a loose file cut short by a full
// disk or an interrupted copy, a pack with bad data) as its own "internal error, please report"
// or as a bare inflate failure, without saying which repository. These are not bugs but damage
// on disk: this turns them into a message that names the object and the repository and says
// what to do.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Returns the message for an object read that failed because the object is corrupt, or
 * undefined when the error is something else (a missing object, an I/O error).
 */
export function corruptObjectMessage(gitdir: string, oid: string, error: unknown): string | undefined {
  if (!isCorruptionError(error, oid)) return undefined;
  const loose = join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
  const where = existsSync(loose)
    ? `a truncated or damaged loose object: ${loose}`
    : 'damaged data in a pack';
  return `object ${oid} in ${gitdir} is corrupt (${where}): run git fsck in that repository, and restore the object from a clone`;
}

// What isomorphic-git throws for bytes that do not inflate (DecompressionError, or zlib's own
// error), or for an object it cannot make out (an InternalError naming it: content whose hash is
// not its id, an entry a pack cannot give back).
function isCorruptionError(error: unknown, oid: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'DecompressionError') return true;
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') return true;
  return code === 'InternalError' && typeof message === 'string' && message.includes(oid);
}
