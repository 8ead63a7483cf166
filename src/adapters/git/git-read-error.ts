// Why a repository, or an object in it, could not be read. The subject (the path, or the object
// id) comes first in the message. Object errors are not terminal: the objects of a remote's
// mirror are fetched again on the next refresh, which may repair them.
import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type GitReadErrorCode =
  /** The path is neither a work tree with `.git` nor a bare repository. */
  | 'NotAGitRepository'
  /** An object is not of the type its use requires (a tree where a commit should be, …). */
  | 'WrongObjectType'
  /** An object's content is not what its type requires (a commit without a tree line, …). */
  | 'CorruptObject'
  /** An object the read needs is not where it should be. */
  | 'MissingObject';

/** Why a repository or one of its objects could not be read. */
export class GitReadError extends GitfleetError<GitReadErrorCode> {
  constructor(code: GitReadErrorCode, message: string) {
    super(message, { code, terminal: code === 'NotAGitRepository' });
  }
}
