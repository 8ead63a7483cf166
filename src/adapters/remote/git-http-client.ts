// The HTTP client isomorphic-git's fetch talks through: the same requests as its own Node
// client, with the connect and silence limits and the abort signal of every other request
// to the remote (open-http-request.ts). The answer's body is streamed as it arrives, and a
// body cut off by a timeout or an abort fails with that reason.
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { ProtocolError } from './protocol-error.js';
import { pump } from './http-exchange.js';
import { openHttpRequest } from './open-http-request.js';
import type { RateLimitGate } from './rate-limit-gate.js';
import type { RemoteTimeouts } from './remote-timeouts.js';

/** Returns an isomorphic-git HTTP client whose requests time out and can be aborted. */
export function gitHttpClient(opts: {
  timeouts: RemoteTimeouts;
  signal?: AbortSignal | undefined;
  /** The repository's rate-limit gate (open-http-request.ts). */
  gate?: RateLimitGate | undefined;
}): HttpClient {
  return {
    request: async (req: GitHttpRequest): Promise<GitHttpResponse> => {
      const open = openHttpRequest({
        url: req.url,
        method: req.method ?? 'GET',
        headers: req.headers ?? {},
        timeouts: opts.timeouts,
        signal: opts.signal,
        gate: opts.gate,
      });
      if (req.body === undefined) open.request.end();
      else {
        const body = req.body as AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
        void pump(toAsync(body), open.request).catch((error: unknown) =>
          open.request.destroy(error as Error),
        );
      }
      const res = await open.response;
      async function* stream(): AsyncGenerator<Uint8Array> {
        try {
          for await (const chunk of res as AsyncIterable<Buffer>) yield chunk;
        } catch (error) {
          throw open.failure() ?? error;
        }
        if (!res.complete)
          throw open.failure() ?? new ProtocolError('BadAnswer', `${req.url}: the answer was cut off`);
      }
      return {
        url: req.url,
        method: req.method ?? 'GET',
        statusCode: res.statusCode ?? 0,
        statusMessage: res.statusMessage ?? '',
        headers: Object.fromEntries(
          Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
        ),
        body: stream(),
      };
    },
  };
}

async function* toAsync(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) yield chunk;
}
