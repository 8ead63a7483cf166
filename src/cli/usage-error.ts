import { GitfleetError } from '../core/model/gitfleet-error.js';

/** Arguments a command cannot run with (exit code 2); the message names the flag or argument. */
export class UsageError extends GitfleetError<'UsageError'> {
  constructor(message: string) {
    super(message, { code: 'UsageError', terminal: true });
  }
}
