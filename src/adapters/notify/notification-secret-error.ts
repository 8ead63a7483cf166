// Why a receiver's secret (its URL, its HMAC key) could not be read. The message names the
// policy, the receiver and the file or Secret, never the value.
import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type NotificationSecretErrorCode =
  /** The file or Secret key the policy names is not there (or no --notifications-secrets-dir was given). */
  | 'NotificationSecretMissing'
  /** It is there and cannot be used: unreadable, empty, too large, not a URL. */
  | 'NotificationSecretUnusable';

/** Why a receiver's secret could not be read; not terminal: a Secret mounted later is read at the next attempt. */
export class NotificationSecretError extends GitfleetError<NotificationSecretErrorCode> {
  constructor(code: NotificationSecretErrorCode, message: string) {
    super(message, { code });
  }
}
