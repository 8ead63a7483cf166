// Sends webhook requests the way the git hosts do, for the webhook tests.
import { createHmac } from 'node:crypto';
import { request } from 'node:http';

/** What the server answered. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** Sends one request; `chunked` sends the body without a Content-Length. */
export function send(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer | string; chunked?: boolean },
): Promise<Answer> {
  const body = Buffer.from(opts.body ?? '');
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: opts.method ?? 'POST',
        headers: { ...(opts.chunked ? {} : { 'Content-Length': String(body.length) }), ...opts.headers },
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
      },
    );
    // The server may answer and close before the whole body is sent: that is the point.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    if (opts.chunked) {
      for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
      req.end();
    } else req.end(body);
  });
}

/** Returns GitHub's and Gitea's signature of a body: hex HMAC-SHA256 with the secret. */
export function hmacHex(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
