// How a command reports an error. In text mode: a line on stderr, as always. With
// `--output json` (diff: `--format json`), stdout holds only JSON, so a script reading it never
// meets plain text: an error is one object on stdout,
//   {"error":{"code":"UsageError","message":"…","subject":"…","terminal":true,"errors":[…]}}
// which is a gitfleet error's own toJSON (core/model/gitfleet-error.ts): `code` is its code
// (OutputDirNotOurs, InvalidUtf8, …; UsageError for bad arguments, exit 2; Error for an error
// that is not gitfleet's), `subject` what the message is about (the path, ref or object it
// starts with) when it names one, `terminal` whether retrying cannot help; `errors` lists the
// load errors of a fleet that does not load (LoadFailed).
// Log lines (the hub's and agent's progress) stay text on stderr.
import type { Io } from './io.js';
import { GitfleetError } from '../core/model/gitfleet-error.js';
import { redactUrl } from '../adapters/remote/redact-secrets.js';

/** One error as a command reports it. */
export interface ErrorReport {
  code: string;
  message: string;
  subject?: string;
  /** Retrying cannot help (a gitfleet error's own flag). */
  terminal?: boolean;
  errors?: readonly unknown[];
}

/** Returns whether the arguments ask for JSON output (`--output json` or `-o json`, or diff's `--format json`). */
export function wantsJson(args: readonly string[]): boolean {
  return args.some(
    (arg, i) =>
      arg === '--output=json' ||
      arg === '--format=json' ||
      arg === '-ojson' ||
      ((arg === '--output' || arg === '--format' || arg === '-o') && args[i + 1] === 'json'),
  );
}

/** Returns the report of a thrown error: a gitfleet error's own (toJSON), else code `Error` and the subject its message starts with. */
export function reportOfError(error: unknown): ErrorReport {
  if (error instanceof GitfleetError) return error.toJSON();
  return withSubject({ code: 'Error', message: error instanceof Error ? error.message : String(error) });
}

/** Returns the report with the subject its message starts with (`subject: …`), when it has one. */
export function withSubject(report: ErrorReport): ErrorReport {
  if (report.subject !== undefined) return report;
  const colon = report.message.indexOf(': ');
  const firstLine = report.message.split('\n', 1)[0] ?? '';
  return colon > 0 && colon < firstLine.length
    ? { ...report, subject: report.message.slice(0, colon) }
    : report;
}

/** Prints an error: `text` on stderr, or the report as one JSON object on stdout when `json`. */
export function printError(io: Io, opts: { json: boolean; text: string; report: ErrorReport }): void {
  // A message quoting the --repo URL (`no cluster branch … in <url>`) never shows its password.
  if (opts.json) io.out(redactUrl(JSON.stringify({ error: opts.report })));
  else io.err(redactUrl(opts.text));
}
