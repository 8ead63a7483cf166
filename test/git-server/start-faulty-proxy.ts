// Real network faults in front of a real git server, for the fault tests: an HTTP proxy that
// passes requests to the git server and, while told to, cuts or corrupts the answer to a
// fetch's pack request (POST …/git-upload-pack), as a dropped connection or a broken
// middlebox would. And a TCP server that accepts connections and never answers.
import { createServer as createHttpServer, request } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** What the proxy does to the next pack answers. */
export type PackFault = 'pass' | 'truncate' | 'corrupt';

export interface FaultyProxy {
  /** The proxied URL of a git server URL's path, e.g. url('fleet.git'). */
  url(repo: string): string;
  /** Sets what happens to pack answers from now on. */
  setFault(fault: PackFault): void;
  /** How many pack answers were cut or corrupted. */
  readonly faults: number;
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1 in front of the git server at `upstream` (http://127.0.0.1:port);
 * with `v0`, it drops the Git-Protocol header, as a server that speaks only protocol v0 ignores it.
 */
export async function startFaultyProxy(upstream: string, opts: { v0?: boolean } = {}): Promise<FaultyProxy> {
  const target = new URL(upstream);
  let fault: PackFault = 'pass';
  let faults = 0;
  const server = createHttpServer((req, res) => {
    const isPack = req.method === 'POST' && (req.url ?? '').endsWith('/git-upload-pack');
    const headers = { ...req.headers };
    if (opts.v0 === true) delete headers['git-protocol'];
    const out = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          if (isPack && fault !== 'pass' && body.length > 64) {
            faults++;
            if (fault === 'truncate') body = body.subarray(0, Math.floor(body.length * 0.6));
            else {
              body = Buffer.from(body);
              const at = Math.floor(body.length * 0.7);
              body[at] = body[at]! ^ 0xff;
            }
          }
          const headers = { ...answer.headers };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (repo) => `http://127.0.0.1:${port}/${repo.replace(/^\//, '')}`,
    setFault: (f) => (fault = f),
    get faults() {
      return faults;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A TCP server that accepts every connection, reads what it is sent, and never answers. */
export interface SilentServer {
  /** An http URL on the server, e.g. url('fleet.git'). */
  url(repo: string): string;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

/** Starts a never-answering server on 127.0.0.1 on a free port. */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createTcpServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (repo) => `http://127.0.0.1:${port}/${repo.replace(/^\//, '')}`,
    get accepted() {
      return accepted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
