// Why an answer of a git host could not be read as git's smart-HTTP protocol (pkt-lines, pack
// files and their index). The remote adapter wraps it in a RemoteError naming the remote and
// what was being done (to-remote-error.ts); the subject here is the part of the answer at fault.
import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type ProtocolErrorCode =
  /** A pkt-line whose length is not four hex digits, or longer than what is left. */
  | 'MalformedPktLine'
  /** The answer is larger than the client accepts, or was cut off. */
  | 'BadAnswer'
  /** A pack file or its index is cut off or not what git writes (version, checksum, missing objects). */
  | 'DamagedPack';

/** An answer that does not follow the git protocol. */
export class ProtocolError extends GitfleetError<ProtocolErrorCode> {
  constructor(code: ProtocolErrorCode, message: string) {
    super(message, { code });
  }
}
