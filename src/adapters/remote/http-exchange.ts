// One HTTP(S) request to a git server, for the push: credentials sent with the request (never
// in the URL), the request body streamed, the answer read whole (ref advertisements and
// push reports are small; the cap guards against a server that sends without end). Redirects
// are not followed, so credentials never travel to another host.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpExchange {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Streamed as it is produced (chunked transfer encoding). */
  body?: AsyncIterable<Buffer>;
  /** Largest answer accepted (default 64 MiB). */
  maxResponseBytes?: number;
}

/** The answer: status, headers and the whole body. */
export interface HttpAnswer {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Sends the request, streaming its body, and resolves to the whole answer; rejects on network errors. */
export function exchange(req: HttpExchange): Promise<HttpAnswer> {
  const send = req.url.startsWith('https:') ? httpsRequest : httpRequest;
  const limit = req.maxResponseBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const outgoing = send(req.url, { method: req.method, headers: req.headers }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) res.destroy(new Error(`answer larger than ${limit} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    if (req.body === undefined) outgoing.end();
    else void pump(req.body, outgoing).catch((error: unknown) => outgoing.destroy(error as Error));
  });
}

/** Writes the body into the request, waiting for drain whenever the socket is full. */
async function pump(body: AsyncIterable<Buffer>, out: NodeJS.WritableStream): Promise<void> {
  for await (const chunk of body) {
    if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
  }
  out.end();
}
