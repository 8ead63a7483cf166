// Why a commit status could not be posted to or read from a forge (docs/commit-statuses.md).
// Messages name the forge's endpoint first (never the token). A rate-limit answer is not one of
// these: it closes the API's gate and fails as the remote adapter's RateLimited, waited out.
import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type ForgeStatusErrorCode =
  /** The forge answered 4xx (bad token, no such repository or commit, a rule refusing the status): it says why. */
  | 'ForgeRefused'
  /** No answer in time, the connection failed, or a 5xx: a later attempt may pass. */
  | 'ForgeUnreachable'
  /** The answer is not what the forge's API documents (not JSON, not the expected shape). */
  | 'ForgeBadAnswer'
  /** The flags and the --repo URL do not say which forge, API or repository to post to. */
  | 'ForgeTargetUnknown';

const terminal: ReadonlySet<ForgeStatusErrorCode> = new Set(['ForgeTargetUnknown']);

/** A commit status the forge did not take, or a configuration that names no forge. */
export class ForgeStatusError extends GitfleetError<ForgeStatusErrorCode> {
  constructor(
    code: ForgeStatusErrorCode,
    message: string,
    /** The HTTP status of the answer, when there was one. */
    readonly status?: number,
  ) {
    super(message, { code, terminal: terminal.has(code) });
  }
}
