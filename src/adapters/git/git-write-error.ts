// One error class for everything that can go wrong while writing objects and moving refs, with a
// literal `code` callers switch on and the subject (ref, path, object id) first in the message.
import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type GitWriteErrorCode =
  /** The ref's current value is not the one the caller expected: re-read and retry. */
  | 'RefConflict'
  /** `<ref>.lock` exists: another writer holds it, or a crashed one left it behind. */
  | 'RefLocked'
  /** The new commit does not descend from the ref's current commit. */
  | 'NonFastForward'
  /** A ref name git would refuse (check-ref-format), or one that clashes with a ref directory. */
  | 'InvalidRefName'
  /** An object the write depends on is not in the repository. */
  | 'MissingObject'
  /** An object's stored bytes are damaged (a truncated loose file, bad pack data). */
  | 'CorruptObject'
  /** An object is not of the type its use requires (a tree id that names a blob, …). */
  | 'WrongObjectType'
  /** A string that should be an object id is not 40 lowercase hex digits. */
  | 'InvalidObjectId'
  /** An object id given with an object is not the hash of its content. */
  | 'ObjectIdMismatch'
  /** A path git would refuse in a tree (empty, `..`, `.git`, NUL, leading or doubled `/`). */
  | 'InvalidPath'
  /** Two changes of one tree build contradict each other (same path twice, file and directory). */
  | 'PathConflict'
  /** A tree entry this writer cannot round-trip (a name that is not UTF-8). */
  | 'UnsupportedTree'
  /** An author or committer git would refuse (`<`, `>` or a newline in a name or email). */
  | 'InvalidIdentity';

/** Codes a retry may fix once the state has been read again; all others are terminal. */
const retryable: ReadonlySet<GitWriteErrorCode> = new Set(['RefConflict', 'RefLocked']);

/** What a ref update found, for the caller that re-reads and retries. */
export interface RefUpdateDetail {
  ref: string;
  expected: string | null;
  actual: string | null;
}

/** Why an object or ref could not be written. */
export class GitWriteError extends GitfleetError<GitWriteErrorCode> {
  constructor(
    code: GitWriteErrorCode,
    message: string,
    readonly detail?: RefUpdateDetail,
  ) {
    super(message, { code, terminal: !retryable.has(code), ...(detail ? { subject: detail.ref } : {}) });
  }
}
