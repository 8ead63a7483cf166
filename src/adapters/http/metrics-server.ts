// The health and metrics endpoint of `--metrics-addr` (docs/production.md#health-and-metrics):
//
//   request            answer
//   GET /metrics       200, the process's metrics in Prometheus' text format
//   GET /healthz       200 `ok` while the loop is alive; 503 once it stopped
//   GET /readyz        200 `ok` once ready (first pass done, lease held or not needed); 503 and why not
//   another path       404
//   another method     405 (Allow: GET, HEAD)
//
// Every answer is computed from memory, so a probe is answered at once even while a pass runs.
// It listens on 127.0.0.1 unless told otherwise; a port in use is a terminal error at startup,
// naming the address. close() drops open (keep-alive) connections too, so a stopping process
// is not held by a scraper.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitfleetError } from '../../core/model/gitfleet-error.js';

/** What the endpoint reads (loops/runtime/readiness.ts Readiness). */
export interface ReadinessView {
  ready(): { ready: boolean; reason: string };
  healthy(): boolean;
}

export interface MetricsServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  readiness: ReadinessView;
  scrape(): Promise<{ contentType: string; body: string }>;
  /** How the address is named in errors (default `host:port`), e.g. `--metrics-addr :9090`. */
  describe?: string;
}

/** A running endpoint. */
export interface MetricsServer {
  /** e.g. http://127.0.0.1:9090 */
  url: string;
  close(): Promise<void>;
}

/** The endpoint could not listen. */
export class MetricsServerError extends GitfleetError<'AddressInUse' | 'ListenFailed'> {
  constructor(code: 'AddressInUse' | 'ListenFailed', message: string, cause: unknown) {
    super(message, { code, terminal: true, cause });
  }
}

/** Starts the endpoint; throws MetricsServerError when the address cannot be listened on. */
export async function startMetricsServer(opts: MetricsServerOptions): Promise<MetricsServer> {
  const host = opts.host ?? '127.0.0.1';
  // A request that fails is that request's 500, never an unhandled rejection ending the process.
  const server = createServer((req, res) =>
    Promise.resolve()
      .then(() => answer(req, res, opts))
      .catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else send(res, 500, `${error instanceof Error ? error.message : String(error)}\n`);
      }),
  );
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = opts.describe ?? `${host}:${opts.port}`;
      reject(
        error.code === 'EADDRINUSE'
          ? new MetricsServerError(
              'AddressInUse',
              `${where}: the address is in use; pick another port`,
              error,
            )
          : new MetricsServerError('ListenFailed', `${where}: cannot listen: ${error.message}`, error),
      );
    });
    server.listen(opts.port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, opts: MetricsServerOptions): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (!['/metrics', '/healthz', '/readyz'].includes(path)) return send(res, 404, 'not found\n');
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(res, 405, 'method not allowed\n', { Allow: 'GET, HEAD' });
  if (path === '/healthz') {
    return opts.readiness.healthy() ? send(res, 200, 'ok\n') : send(res, 503, 'stopped\n');
  }
  if (path === '/readyz') {
    const { ready, reason } = opts.readiness.ready();
    return send(res, ready ? 200 : 503, `${reason}\n`);
  }
  try {
    const { contentType, body } = await opts.scrape();
    send(res, 200, body, { 'Content-Type': contentType });
  } catch (error) {
    send(res, 500, `metrics: ${(error as Error).message}\n`);
  }
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
