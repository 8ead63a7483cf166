// One HTTP(S) request with the limits every request to a git server has: a connect timeout, a
// silence timeout (no byte either way for idleMs, while sending, waiting or reading), and an
// abort signal that ends it at once (the process is stopping). Whatever ends the request, the
// response's body fails with that reason, never with a bare "aborted". With the repository's
// rate-limit gate (rate-limit-gate.ts), nothing is sent while the gate is closed, and a
// rate-limit answer closes it and fails the request with RateLimited, its body left unread.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { RemoteError } from './remote-error.js';
import type { RemoteTimeouts } from './remote-timeouts.js';
import type { RateLimitGate } from './rate-limit-gate.js';

export interface HttpRequestSpec {
  url: string;
  method: string;
  headers: Record<string, string>;
  timeouts: RemoteTimeouts;
  /** Aborting it ends the request with an AbortError. */
  signal?: AbortSignal | undefined;
  /** The repository's rate-limit gate, shared by every request to it. */
  gate?: RateLimitGate | undefined;
}

/** An open request: its response once the head arrives, and why it failed, if it did. */
export interface OpenRequest {
  request: ClientRequest;
  response: Promise<IncomingMessage>;
  /** The error that ended the request early (timeout, abort, network), if any. */
  failure(): Error | undefined;
}

/**
 * Starts the request with its timeouts and abort signal armed; the caller writes and ends the
 * body. Throws RateLimited, sending nothing, while the repository's gate is closed.
 */
export function openHttpRequest(spec: HttpRequestSpec): OpenRequest {
  const ticket = spec.gate?.check();
  const send = spec.url.startsWith('https:') ? httpsRequest : httpRequest;
  const request = send(spec.url, { method: spec.method, headers: spec.headers });
  let failed: Error | undefined;
  const fail = (error: Error): void => {
    failed ??= error;
    request.destroy(failed);
  };
  const connectTimer = setTimeout(
    () => fail(timeoutError(`no connection within ${seconds(spec.timeouts.connectMs)}`)),
    spec.timeouts.connectMs,
  );
  // The agent keeps the socket alive for the next request: what this request hangs on it (its
  // idle listener) leaves with it, or each request adds one until Node warns (MaxListeners).
  const onIdle = (): void => fail(timeoutError(`no answer for ${seconds(spec.timeouts.idleMs)}`));
  let held: Socket | undefined;
  const onConnected = (): void => {
    clearTimeout(connectTimer);
    held?.setTimeout(spec.timeouts.idleMs);
  };
  request.on('socket', (socket) => {
    held = socket;
    socket.on('timeout', onIdle);
    if (socket.connecting) socket.once('connect', onConnected);
    else onConnected();
  });
  // An operation past its deadline (with-deadline.ts) aborts with its own error; anything else is the process stopping.
  const onAbort = (): void =>
    fail(spec.signal?.reason instanceof RemoteError ? spec.signal.reason : abortError());
  if (spec.signal?.aborted) queueMicrotask(onAbort);
  else spec.signal?.addEventListener('abort', onAbort, { once: true });
  request.once('close', () => {
    clearTimeout(connectTimer);
    spec.signal?.removeEventListener('abort', onAbort);
    held?.removeListener('timeout', onIdle);
    held?.removeListener('connect', onConnected);
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', (res) => {
      const limited = spec.gate?.observe(res.statusCode ?? 0, res.statusMessage ?? '', res.headers, ticket);
      if (limited === undefined) return resolve(res);
      fail(limited);
      reject(limited);
    });
    request.once('error', (error) => reject(failed ?? error));
  });
  return { request, response, failure: () => failed };
}

/** Returns an error with code ETIMEDOUT (read as Unreachable). */
function timeoutError(what: string): Error {
  return Object.assign(new Error(what), { code: 'ETIMEDOUT' });
}

/** Returns the error of a request ended because the process is stopping. */
export function abortError(): Error {
  return Object.assign(new Error('request aborted: gitfleet is stopping'), {
    code: 'ABORT_ERR',
    name: 'AbortError',
  });
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
