// The one base of every error gitfleet throws. Each failure has a class of its own on this base,
// with a literal `code` callers switch on (instead of matching message text), the `subject` the
// message is about (a file, an object, a cluster, a ref, a remote), named first in the message
// (`<subject>: <what went wrong>`), and `terminal` when retrying cannot fix it: the loops log a
// terminal error once and wait for the next change instead of backing off and trying again.
// `toJSON` is what the CLI prints for an error with `--output json`.

/** An error as data: what `--output json` prints inside `{"error": …}`. */
export interface ErrorJson {
  code: string;
  message: string;
  subject?: string;
  terminal: boolean;
}

/** What every gitfleet error carries besides its message. */
export interface GitfleetErrorInit<C extends string> {
  code: C;
  /** What the error is about; defaults to the part of the message before its first `: `. */
  subject?: string;
  /** Retrying cannot fix it (default false: a later attempt may pass). */
  terminal?: boolean;
  cause?: unknown;
}

/** The base error: a stable `code`, the `subject` first in the message, and whether it is `terminal`. */
export class GitfleetError<C extends string = string> extends Error {
  readonly code: C;
  readonly subject: string | undefined;
  readonly terminal: boolean;
  constructor(message: string, init: GitfleetErrorInit<C>) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.subject = init.subject ?? subjectOf(message);
    this.terminal = init.terminal ?? false;
  }

  /** Returns the error as data (code, message, subject, terminal). */
  toJSON(): ErrorJson {
    return {
      code: this.code,
      message: this.message,
      ...(this.subject !== undefined ? { subject: this.subject } : {}),
      terminal: this.terminal,
    };
  }
}

/**
 * An invariant gitfleet relies on does not hold: a bug in gitfleet, not in the fleet. Terminal,
 * since the same input fails the same way.
 */
export class InternalError extends GitfleetError<'Internal'> {
  constructor(message: string, subject?: string) {
    super(message, { code: 'Internal', terminal: true, ...(subject !== undefined ? { subject } : {}) });
  }
}

/** Returns whether the value is a gitfleet error (with the given code, when one is given). */
export function isGitfleetError(value: unknown, code?: string): value is GitfleetError {
  return value instanceof GitfleetError && (code === undefined || value.code === code);
}

/** Returns whether an error says retrying cannot fix it: a gitfleet error marked terminal. */
export function isTerminal(error: unknown): boolean {
  return error instanceof GitfleetError && error.terminal;
}

/** Returns the part of a message before its first `: ` on the first line, when there is one. */
export function subjectOf(message: string): string | undefined {
  const firstLine = message.split('\n', 1)[0] ?? '';
  const colon = firstLine.indexOf(': ');
  return colon > 0 ? firstLine.slice(0, colon) : undefined;
}
