// An HTTP proxy in front of the test git server for the agent-mirror tests: it can play a host
// that does not speak protocol v2 (it drops the Git-Protocol header, as a v0-only server
// ignores it), and it can play a server killed in the middle of a v2 fetch's pack (it passes
// the head and part of the answer to a `command=fetch` request, then closes the connection).
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AgentMirrorProxy {
  url(repo: string): string;
  /** What to do from now on. */
  set(mode: { v0?: boolean; cutFetch?: boolean }): void;
  /** The requests seen: `GET info/refs`, `POST ls-refs`, `POST fetch` or `POST v0`. */
  readonly seen: string[];
  /** How many fetch answers were cut off. */
  readonly cuts: number;
  close(): Promise<void>;
}

/** Starts the proxy on 127.0.0.1 in front of the git server at `upstream`. */
export async function startAgentMirrorProxy(upstream: string): Promise<AgentMirrorProxy> {
  const target = new URL(upstream);
  let v0 = false;
  let cutFetch = false;
  let cuts = 0;
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers = { ...req.headers };
      if (v0) delete headers['git-protocol'];
      const text = body.toString('latin1');
      const kind = req.method === 'GET' ? 'GET info/refs' : kindOf(text, headers['git-protocol']);
      seen.push(kind);
      const out = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          if (!(cutFetch && kind === 'POST fetch')) return void answer.pipe(res);
          let passed = 0;
          answer.on('data', (c: Buffer) => {
            passed += c.length;
            if (passed > 2048) {
              cuts++;
              res.socket?.destroy(); // the server is gone mid-pack
              answer.destroy();
            } else res.write(c);
          });
        },
      );
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (repo) => `http://127.0.0.1:${port}/${repo.replace(/^\//, '')}`,
    set: (mode) => {
      v0 = mode.v0 ?? v0;
      cutFetch = mode.cutFetch ?? cutFetch;
    },
    seen,
    get cuts() {
      return cuts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function kindOf(body: string, protocol: string | string[] | undefined): string {
  if (protocol !== 'version=2') return 'POST v0';
  return body.includes('command=fetch') ? 'POST fetch' : 'POST ls-refs';
}
