import { GitfleetError } from '../../core/model/gitfleet-error.js';

/** Why a render output directory was not written. */
export type OutputDirErrorCode =
  /** The directory holds files gitfleet did not write. */
  | 'OutputDirNotOurs'
  /** Something under the directory is a symbolic link, or neither a file nor a directory. */
  | 'NotAFileOrDirectory'
  /** A rendered path cannot be written faithfully here (too long, or differs only in case). */
  | 'UnsafeOutputPath';

/** Raised when a render output directory is not written; the message starts with the path. */
export class OutputDirError extends GitfleetError<OutputDirErrorCode> {
  constructor(code: OutputDirErrorCode, message: string) {
    super(message, { code, terminal: true });
  }
}
