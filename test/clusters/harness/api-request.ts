// A minimal HTTPS client for the harness's own calls (readiness, the fake Node), so the harness
// needs no Kubernetes client library.
import { request } from 'node:https';

/** Where and how to call one API server. */
export interface ApiTarget {
  server: string;
  token: string;
  /** PEM of the CA to trust; without it the serving certificate is not verified. */
  ca?: string;
}

/** An answer: HTTP status and body text; a transport failure is status 0 with its message. */
export interface ApiAnswer {
  status: number;
  body: string;
}

/** Returns the answer of `method path` (with an optional JSON body) from the API server. */
export function apiRequest(
  target: ApiTarget,
  req: { method: string; path: string; body?: unknown; timeoutMs?: number },
): Promise<ApiAnswer> {
  const data = req.body === undefined ? undefined : JSON.stringify(req.body);
  return new Promise((resolve) => {
    const r = request(
      new URL(req.path, target.server),
      {
        method: req.method,
        headers: {
          authorization: `Bearer ${target.token}`,
          accept: 'application/json',
          ...(data === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(target.ca === undefined ? { rejectUnauthorized: false } : { ca: target.ca }),
        timeout: req.timeoutMs ?? 10_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', (err) => resolve({ status: 0, body: err.message }));
      },
    );
    r.on('timeout', () => r.destroy(new Error('timed out')));
    r.on('error', (err) => resolve({ status: 0, body: err.message }));
    r.end(data);
  });
}
