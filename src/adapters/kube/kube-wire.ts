// What KubeHttp sends its requests through: one HTTP exchange at a time, over HTTP/2 (one
// multiplexed connection, as kubectl and client-go use; http2-wire.ts) or HTTP/1.1 keep-alive
// sockets (http1-wire.ts), chosen by what the server offers in the TLS handshake; watches
// always go over HTTP/1.1.
import type { Readable } from 'node:stream';
import type tls from 'node:tls';
import { KubeWireError } from './kube-wire-error.js';

/** One request on the wire: the path with its query string, the headers to send as they are. */
export interface WireRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/namespaces?limit=500`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Give up after this long without an answer; 0: never (a watch). */
  timeoutMs: number;
}

/** A whole answer: status, the Retry-After header if any, and the body as text. */
export interface WireAnswer {
  status: number;
  retryAfter?: string;
  body: string;
}

/** The TLS settings of a kubeconfig context, with an id that changes when any of them does. */
export interface TlsMaterial {
  options: tls.ConnectionOptions;
  id: string;
}

/** What a wire speaks: HTTP/2, or HTTP/1.1. */
export type WireProtocol = 'h2' | 'http/1.1';

/** A way to reach one API server. */
export interface Wire {
  /** Returns the protocol requests go over, once the first connection said (undefined before). */
  protocol(): WireProtocol | undefined;
  /** Returns the server's answer; rejects with the transport's Error when there is none. */
  exchange(req: WireRequest, tls: TlsMaterial): Promise<WireAnswer>;
  /** Opens a long-running request (a watch); resolves with the status and the body as it arrives. */
  open(req: WireRequest, tls: TlsMaterial, signal: AbortSignal): Promise<{ status: number; body: Readable }>;
  /** Closes every connection, ending what is in flight. */
  close(): void;
}

/**
 * Returns the status, Retry-After and text of a body read to its end; rejects when it closes
 * before. Its listeners come off the body once it settles (http2-wire.ts says why).
 */
export function collectAnswer(
  body: Readable,
  status: number,
  retryAfter: string | undefined,
): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => {
      const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
      detach();
      resolve({ status, body: text, ...(retryAfter !== undefined ? { retryAfter } : {}) });
    };
    const onClose = () =>
      onError(new KubeWireError('ConnectionClosed', 'the connection closed before the answer ended'));
    const onError = (error: Error) => {
      detach();
      reject(error);
    };
    const detach = () => {
      chunks = [];
      body.removeListener('data', onData);
      body.removeListener('end', onEnd);
      body.removeListener('close', onClose);
      body.removeListener('error', onError);
      body.on('error', ignore);
    };
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('close', onClose);
    body.on('error', onError);
  });
}

function ignore(): void {}
