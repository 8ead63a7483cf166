// One HTTP(S) request to a git server, for the push: credentials sent with the request (never
// in the URL), the request body streamed, the answer read whole (ref advertisements and
// push reports are small; the cap guards against a server that sends without end). Redirects
// are not followed, so credentials never travel to another host. Connect and silence limits
// and the abort signal are open-http-request.ts's.
import type { ClientRequest, IncomingHttpHeaders } from 'node:http';
import { ProtocolError } from './protocol-error.js';
import { openHttpRequest } from './open-http-request.js';
import type { RateLimitGate } from './rate-limit-gate.js';
import type { RemoteTimeouts } from './remote-timeouts.js';

export interface HttpExchange {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Streamed as it is produced (chunked transfer encoding). */
  body?: AsyncIterable<Buffer>;
  /** Largest answer accepted (default 64 MiB). */
  maxResponseBytes?: number;
  timeouts: RemoteTimeouts;
  signal?: AbortSignal | undefined;
  /** The repository's rate-limit gate (open-http-request.ts). */
  gate?: RateLimitGate | undefined;
}

/** The answer: status, headers and the whole body. */
export interface HttpAnswer {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Sends the request, streaming its body, and resolves to the whole answer; rejects on network errors and timeouts. */
export async function exchange(req: HttpExchange): Promise<HttpAnswer> {
  const limit = req.maxResponseBytes ?? 64 * 1024 * 1024;
  const open = openHttpRequest(req);
  if (req.body === undefined) open.request.end();
  else void pump(req.body, open.request).catch((error: unknown) => open.request.destroy(error as Error));
  const res = await open.response;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new ProtocolError('BadAnswer', `${req.url}: answer larger than ${limit} bytes`);
      chunks.push(chunk);
    }
  } catch (error) {
    res.destroy();
    throw open.failure() ?? error;
  }
  if (!res.complete)
    throw open.failure() ?? new ProtocolError('BadAnswer', `${req.url}: the answer was cut off`);
  return {
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? '',
    headers: res.headers,
    body: Buffer.concat(chunks),
  };
}

/** Writes the body into the request (stopping if the request ends early), waiting for drain whenever the socket is full. */
export async function pump(body: AsyncIterable<Uint8Array>, out: ClientRequest): Promise<void> {
  for await (const chunk of body) {
    if (out.destroyed) return; // timed out or aborted: the response says why
    if (!out.write(chunk)) {
      await new Promise((resolve) => {
        out.once('drain', resolve);
        out.once('close', resolve);
      });
    }
  }
  if (!out.destroyed) out.end();
}
