// One error class for talking to a remote repository, with a literal `code` the hub switches
// on. Messages name the subject first (the ref, or the remote's URL with credentials
// redacted) and never carry a token.
import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type RemoteErrorCode =
  /** The push lost a race: the remote ref is not where the hub expected it. Re-read and retry. */
  | 'PushRejected'
  /** The remote refused the push for another reason (a hook, a protected branch). */
  | 'PushDeclined'
  /** The remote wants credentials we do not have, or refused the ones we sent. */
  | 'AuthFailed'
  /** No repository at that URL. */
  | 'NotFound'
  /** The remote could not be reached or failed on its side (network, 5xx); may pass. */
  | 'Unreachable'
  /**
   * The server refused for its rate limit (429, or 403 saying so), or the repository's gate is
   * still closed after such an answer (rate-limit-gate.ts): wait until the time it names; not an outage.
   */
  | 'RateLimited'
  /** A fetched pack was cut off or damaged: nothing moved; the mirror is rebuilt on the next refresh. */
  | 'DamagedPack'
  /** A ref the hub needs (the source branch) is not on the remote. */
  | 'MissingRef'
  /** The token could not be read, or is not usable in an HTTP header. */
  | 'BadToken'
  /** The options make no sense (a source ref that is not a branch, an empty prefix, …). */
  | 'InvalidOption'
  /** Anything else the remote or the client reported. */
  | 'RemoteFailed';

/** Codes a later attempt may fix without anyone changing the configuration. */
const retryable: ReadonlySet<RemoteErrorCode> = new Set([
  'PushRejected',
  'Unreachable',
  'RateLimited',
  'DamagedPack',
]);

/** Why a fetch from or a push to a remote repository failed. */
export class RemoteError extends GitfleetError<RemoteErrorCode> {
  constructor(
    code: RemoteErrorCode,
    message: string,
    /** The ref concerned, when there is one. */
    readonly ref?: string,
  ) {
    super(message, { code, terminal: !retryable.has(code) });
  }
}

/** Returns whether the value is a RemoteError with the given code. */
export function isRemoteError(value: unknown, code?: RemoteErrorCode): value is RemoteError {
  return value instanceof RemoteError && (code === undefined || value.code === code);
}
