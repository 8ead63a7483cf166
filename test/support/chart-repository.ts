// A classic chart repository on 127.0.0.1 for the template source tests
// (docs/sources.md#charts-from-a-chart-repository): charts packaged with the real `helm package`,
// the index written by the real `helm repo index`, served by a small node server that counts
// requests (path and Authorization header), may require basic auth, and lets a test answer a
// path its own way (hang, garbage, a redirect, a body without end).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { writeFiles } from './chart-fixtures.js';
import { tempDir } from './temp-dirs.js';

/** A request the server saw. */
export interface SeenRequest {
  path: string;
  authorization: string | undefined;
}

/** A chart repository served for a test. */
export interface TestChartRepository {
  url: string;
  /** The folder served: the packaged charts and index.yaml. */
  dir: string;
  requests: SeenRequest[];
  /** Answers a path (`/index.yaml`) its own way instead of serving the file. */
  routes: Map<string, (req: IncomingMessage, res: ServerResponse) => void>;
  stop(): Promise<void>;
}

/** Packages chart folders (path → text, each chart under `<name>/`) into a folder with helm, and indexes it with `helm repo index`. */
export function packageCharts(opts: {
  helm: string;
  files: Record<string, string>;
  names: string[];
  url?: string;
}): string {
  const src = tempDir('chart-src');
  writeFiles(src, opts.files);
  const out = tempDir('chart-repo');
  const env = {
    HOME: src,
    HELM_CACHE_HOME: join(src, '.c'),
    HELM_CONFIG_HOME: join(src, '.f'),
    HELM_DATA_HOME: join(src, '.d'),
  };
  for (const name of opts.names)
    execFileSync(opts.helm, ['package', name, '--destination', out], { cwd: src, env, stdio: 'ignore' });
  execFileSync(opts.helm, ['repo', 'index', out, ...(opts.url ? ['--url', opts.url] : [])], {
    env,
    stdio: 'ignore',
  });
  return out;
}

/** Returns a new folder with the packaged charts of `from` and an index naming them under `url` (charts served by another host). */
export function indexElsewhere(opts: { helm: string; from: string; url: string }): string {
  const out = tempDir('chart-index');
  for (const name of readdirSync(opts.from).filter((n) => n.endsWith('.tgz')))
    copyFileSync(join(opts.from, name), join(out, name));
  execFileSync(opts.helm, ['repo', 'index', out, '--url', opts.url], { env: { HOME: out }, stdio: 'ignore' });
  return out;
}

/** Serves a folder on 127.0.0.1 (a free port); with `auth`, every request needs those basic credentials (401 without). */
export async function serveChartRepository(opts: {
  dir: string;
  auth?: { username: string; password: string };
}): Promise<TestChartRepository> {
  const requests: SeenRequest[] = [];
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
  const sockets = new Set<Socket>();
  const expected =
    opts.auth && `Basic ${Buffer.from(`${opts.auth.username}:${opts.auth.password}`).toString('base64')}`;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ path, authorization: req.headers.authorization });
    if (expected !== undefined && req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="charts"' }).end('unauthorized');
      return;
    }
    const route = routes.get(path);
    if (route) return route(req, res);
    const file = join(opts.dir, path.replace(/^\/+/, ''));
    if (path.includes('..') || !existsSync(file) || path === '/') {
      res.writeHead(404).end('not found');
      return;
    }
    const body = readFileSync(file);
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    dir: opts.dir,
    requests,
    routes,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
