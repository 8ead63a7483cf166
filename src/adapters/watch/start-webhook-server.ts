// The push webhook endpoint: a small HTTP server that turns a verified push notification from
// GitHub, Gitea or GitLab into a "look again" for the hub (verify-webhook.ts says how each is
// verified). The body is read up to a limit and no further; the payload only triggers.
//
//   request                                         answer
//   another path                                    404
//   another method than POST                        405 (Allow: POST)
//   a body over the limit (by header or by count)   413, connection closed, the rest unread
//   no signature or token                           401
//   a signature or token that does not match        403
//   a verified push                                 202, onPush called
//   a verified ping or other event                  204, nothing triggered
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ConfigError } from '../../core/model/config-error.js';
import type { AddressInfo } from 'node:net';
import { claimedRef, verifyWebhook, type WebhookProvider } from './verify-webhook.js';

/** What a verified push said; `ref` is the payload's claim, a hint for the log only. */
export interface PushInfo {
  provider: WebhookProvider;
  ref?: string;
}

export interface WebhookServerOptions {
  /** Default 127.0.0.1: put a TLS-terminating proxy in front to expose it. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  secret: string;
  /** Default `/hooks/push`. */
  path?: string;
  /** Default 1 MiB. */
  maxBodyBytes?: number;
  onPush: (info: PushInfo) => void;
}

/** A running webhook server. */
export interface WebhookServer {
  /** The endpoint's URL, e.g. http://127.0.0.1:8080/hooks/push. */
  url: string;
  close(): Promise<void>;
}

/** Starts the server and returns its URL and how to close it; throws on an empty secret. */
export async function startWebhookServer(opts: WebhookServerOptions): Promise<WebhookServer> {
  if (opts.secret === '')
    throw new ConfigError(
      'MissingSecret',
      'webhook: the secret is empty; set one, and the same on the git host',
    );
  const settings: HookSettings = {
    path: opts.path ?? '/hooks/push',
    limit: opts.maxBodyBytes ?? 1024 * 1024,
    secret: opts.secret,
    onPush: opts.onPush,
  };
  // A hook that fails is its own 500, never an unhandled rejection ending the process.
  const server = createServer((req, res) =>
    Promise.resolve()
      .then(() => handleHook(req, res, settings))
      .catch(() => (res.headersSent ? res.destroy() : answer(res, 500))),
  );
  // A client that dribbles its request is dropped, not waited for.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${settings.path}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

interface HookSettings {
  path: string;
  limit: number;
  secret: string;
  onPush: (info: PushInfo) => void;
}

/** Answers one request as the table at the top says. */
async function handleHook(req: IncomingMessage, res: ServerResponse, s: HookSettings): Promise<void> {
  if (new URL(req.url ?? '/', 'http://localhost').pathname !== s.path) return answer(res, 404);
  if (req.method !== 'POST') return answer(res, 405, { Allow: 'POST' });
  const body = await readLimited(req, s.limit);
  if (body === 'tooLarge') return answer(res, 413, { Connection: 'close' });
  if (body === 'aborted') return;
  const verdict = verifyWebhook({ headers: req.headers, body, secret: s.secret });
  if (verdict.type === 'unsigned') return answer(res, 401);
  if (verdict.type === 'forged') return answer(res, 403);
  if (verdict.type === 'ignored') return answer(res, 204);
  const ref = claimedRef(body, req.headers['content-type']);
  try {
    s.onPush({ provider: verdict.provider, ...(ref === undefined ? {} : { ref }) });
  } catch {
    return answer(res, 500);
  }
  answer(res, 202);
}

function answer(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, headers);
  res.end();
}

/** Reads the body up to `limit` bytes; stops reading as soon as it is known to be larger. */
function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | 'tooLarge' | 'aborted'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(stopReading(req, 'tooLarge'));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) resolve(stopReading(req, 'tooLarge'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve('aborted'));
    req.on('close', () => {
      if (!req.complete) resolve('aborted');
    });
  });
}

/** Stops taking data from the client; the answer goes out with `Connection: close`. */
function stopReading<T>(req: IncomingMessage, outcome: T): T {
  req.removeAllListeners('data');
  req.pause();
  return outcome;
}
