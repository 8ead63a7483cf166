// Why a command (render, validate, log, status) found nothing to show, or not what it needs; the message
// names the repository or branch first.
import { GitfleetError } from '../core/model/gitfleet-error.js';

export type CommandErrorCode =
  /** No cluster branch under the prefix (log). */
  | 'NoClusterBranch'
  /** No bindings branch: the hub has not run (status). */
  | 'NoBindingsBranch'
  /** The bindings branch's head does not name the source commit it was rendered from (status -l). */
  | 'BindingsWithoutSource'
  /** The source commit of the bindings does not load (status -l). */
  | 'SourceDoesNotLoad'
  /** The fleet source given is not a directory (render, validate). */
  | 'NotADirectory'
  /** The fleet does not load (secrets recipients). */
  | 'LoadFailed'
  /** A cluster asked for is not registered, or has no age recipient (secrets recipients). */
  | 'NoAgeRecipient';

/** A command that cannot show what was asked of it. */
export class CommandError extends GitfleetError<CommandErrorCode> {
  constructor(code: CommandErrorCode, message: string, subject?: string) {
    super(message, { code, terminal: true, ...(subject !== undefined ? { subject } : {}) });
  }
}
