// Local TLS servers for the kube adapter's wire tests: one that speaks HTTP/2 only and one that
// speaks HTTP/1.1 only, each with a self-signed certificate for 127.0.0.1 (made by the openssl
// command line), and a KubeConfig that trusts it and sends a bearer token.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

/** Whether the openssl command line is there to make a certificate with. */
export const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export const testToken = 'wire-test-token';

/** A request as the server saw it. */
export interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

/** What the handler answers: a status, headers and a body; or 'drop' (close the connection), 'hang' (never answer). */
export type Reply = { status: number; headers?: Record<string, string>; body: string } | 'drop' | 'hang';

export interface TestServer {
  kubeconfig: KubeConfig;
  /** The server's own TLS connections accepted so far. */
  connections: () => number;
  seen: Seen[];
  close: () => Promise<void>;
}

function certificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-wire-'));
  try {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
        ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1'],
        ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function kubeconfigFor(port: number, cert: Buffer): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: 'wire',
        server: `https://127.0.0.1:${port}`,
        caData: cert.toString('base64'),
        skipTLSVerify: false,
      },
    ],
    users: [{ name: 'wire', token: testToken }],
    contexts: [{ name: 'wire', cluster: 'wire', user: 'wire' }],
    currentContext: 'wire',
  });
  return kc;
}

/** Starts a TLS server speaking only `protocol`, answering each request with `reply`. */
export async function startTestServer(
  protocol: 'h2' | 'http/1.1',
  reply: (seen: Seen) => Reply,
): Promise<TestServer> {
  const { key, cert } = certificate();
  const seen: Seen[] = [];
  let connections = 0;
  const handle = (
    req: http2.Http2ServerRequest | import('node:http').IncomingMessage,
    res: http2.Http2ServerResponse | import('node:http').ServerResponse,
    drop: () => void,
  ) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const s: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers['authorization'],
        contentType: req.headers['content-type'],
        body,
      };
      seen.push(s);
      const r = reply(s);
      if (r === 'hang') return;
      if (r === 'drop') return drop();
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
      res.end(r.body);
    });
  };
  const server =
    protocol === 'h2'
      ? http2.createSecureServer({ key, cert, allowHTTP1: false }, (req, res) =>
          handle(req, res, () => req.stream.session?.destroy()),
        )
      : https.createServer({ key, cert, ALPNProtocols: ['http/1.1'] }, (req, res) =>
          handle(req, res, () => req.socket.destroy()),
        );
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s: import('node:net').Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    kubeconfig: kubeconfigFor(port, cert),
    connections: () => connections,
    seen,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
