// Why a request to a Kubernetes API server got no whole answer on the wire (HTTP/1.1 or HTTP/2):
// the connection closed, the stream was reset, the deadline passed. The client turns each into a
// KubeApiError KubeNoAnswer naming the request (kube-http.ts), retried as any missing answer is.
import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type KubeWireErrorCode =
  /** The connection closed before the answer (or the watch) ended. */
  | 'ConnectionClosed'
  /** No answer within the request's deadline, or no TLS handshake within the connect deadline. */
  | 'WireTimeout'
  /** The HTTP/2 stream closed before an answer. */
  | 'StreamReset'
  /** A watch line its reader could not take (a proxy's page), or a failure that was not an Error. */
  | 'UnreadableAnswer';

/** Why a request to an API server got no whole answer. */
export class KubeWireError extends GitfleetError<KubeWireErrorCode> {
  constructor(code: KubeWireErrorCode, message: string) {
    super(message, { code });
  }
}
