// The web server of `gitfleet ui` (docs/dashboard.md): read-only, on 127.0.0.1 unless told
// otherwise.
//
//   request                  answer
//   GET /                    the page (ui/index.html); every page is this one file, routed by the hash
//   GET /ui/<file>           a file of the shipped `ui/` folder (js, css), never outside it
//   GET /api/<name>?…        200 and the JSON document the handler returns; 404 when it returns undefined
//   GET /api/events          server-sent events: `changed` with the new generation when a branch moved
//   another method           405 (Allow: GET, HEAD): nothing here writes
//
// A Host header that names neither the bound address nor localhost is refused (421), so a web
// page elsewhere cannot read the dashboard through DNS rebinding; the page's Content-Security-
// Policy allows only its own scripts, and no inline script.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { GitfleetError } from '../../core/model/gitfleet-error.js';

/** A JSON document by name; undefined answers 404. */
export type UiHandler = (params: URLSearchParams) => Promise<unknown>;

export interface UiServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** The folder of the page's files (ui/ of the package). */
  staticRoot: string;
  api: Readonly<Record<string, UiHandler>>;
}

/** A running dashboard server. */
export interface UiServer {
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  /** Sends an event to every open page. */
  broadcast(event: string, data: unknown): void;
  close(): Promise<void>;
}

/** The server could not listen. */
export class UiServerError extends GitfleetError<'AddressInUse' | 'ListenFailed'> {
  constructor(code: 'AddressInUse' | 'ListenFailed', message: string, cause: unknown) {
    super(message, { code, terminal: true, cause });
  }
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const security = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/** Starts the server; throws UiServerError when the address cannot be listened on. */
export async function startUiServer(opts: UiServerOptions): Promise<UiServer> {
  const host = opts.host ?? '127.0.0.1';
  const streams = new Set<ServerResponse>();
  let port = opts.port;
  const server = createServer((req, res) => {
    // Whatever goes wrong answering one request is that request's 500, never the process's end.
    answer(req, res, { ...opts, host, boundPort: () => port, streams }).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `${(error as Error).message}\n`);
      else res.end();
    });
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host}:${opts.port}`;
      reject(
        error.code === 'EADDRINUSE'
          ? new UiServerError('AddressInUse', `${where}: the address is in use; pick another --port`, error)
          : new UiServerError('ListenFailed', `${where}: cannot listen: ${error.message}`, error),
      );
    });
    server.listen(opts.port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  port = address.port;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // A comment line every 20 s keeps idle event streams open through proxies and tells a closed one.
  const keepAlive = setInterval(() => {
    for (const res of streams) res.write(': keep-alive\n\n');
  }, 20_000);
  keepAlive.unref();
  return {
    url: `http://${shown}:${address.port}`,
    broadcast: (event, data) => {
      for (const res of streams) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        clearInterval(keepAlive);
        for (const res of streams) res.end();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

interface Context extends UiServerOptions {
  host: string;
  boundPort: () => number;
  streams: Set<ServerResponse>;
}

async function answer(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(res, 405, 'text/plain; charset=utf-8', 'the dashboard is read-only\n', {
      Allow: 'GET, HEAD',
    });
  if (!isAllowedHost(req.headers.host, ctx))
    return send(res, 421, 'text/plain; charset=utf-8', 'unknown Host header\n');
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname;
  if (path === '/' || path === '/index.html') return sendFile(res, ctx.staticRoot, 'index.html');
  if (path.startsWith('/ui/')) {
    let file: string;
    try {
      file = decodeURIComponent(path.slice(4));
    } catch {
      return send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
    }
    return sendFile(res, ctx.staticRoot, file);
  }
  if (path === '/api/events') return openStream(req, res, ctx.streams);
  const handler = path.startsWith('/api/') ? ctx.api[path.slice(5)] : undefined;
  if (handler === undefined || !Object.hasOwn(ctx.api, path.slice(5)))
    return send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  try {
    const body = await handler(url.searchParams);
    if (body === undefined) return send(res, 404, 'application/json', JSON.stringify({ error: 'not found' }));
    send(res, 200, 'application/json', JSON.stringify(body), { 'Cache-Control': 'no-store' });
  } catch (error) {
    send(res, 500, 'application/json', JSON.stringify({ error: (error as Error).message }));
  }
}

/** Whether a listen address is loopback: 127.0.0.0/8, ::1 (also IPv4-mapped) or localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Whether a listen address is a wildcard (every interface): 0.0.0.0, ::. */
export function isWildcardHost(host: string): boolean {
  return ['0.0.0.0', '::', '[::]', ''].includes(host);
}

// The DNS-rebinding guard: a page of another site that resolves its name to our address must
// not read the dashboard, so the Host header must name the address we are bound to (and on a
// loopback bind, any loopback name). Only a wildcard bind, where the machine's names are not
// known, takes any Host: the user chose to open it to the network (ui.ts warns).
function isAllowedHost(header: string | undefined, ctx: Context): boolean {
  if (isWildcardHost(ctx.host)) return true;
  if (header === undefined) return false;
  const port = String(ctx.boundPort());
  const bound = ctx.host.includes(':') && !ctx.host.startsWith('[') ? `[${ctx.host}]` : ctx.host;
  const allowed = [`${bound}:${port}`.toLowerCase()];
  if (isLoopbackHost(ctx.host)) allowed.push(`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`);
  return allowed.includes(header.toLowerCase());
}

function openStream(req: IncomingMessage, res: ServerResponse, streams: Set<ServerResponse>): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    ...security,
  });
  res.write('retry: 2000\n\n');
  streams.add(res);
  req.socket.setTimeout(0);
  req.on('close', () => streams.delete(res));
}

async function sendFile(res: ServerResponse, root: string, relative: string): Promise<void> {
  const path = normalize(join(root, relative));
  const type = types[extname(path)];
  if (!path.startsWith(normalize(root) + sep) || type === undefined)
    return send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  let body: Buffer;
  try {
    body = await readFile(path);
  } catch {
    return send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  }
  send(res, 200, type, body, { 'Cache-Control': 'no-cache' });
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': type, ...security, ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
