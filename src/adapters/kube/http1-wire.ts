// HTTP/1.1 to one API server over keep-alive sockets (up to `maxSockets` at once): the wire for
// a plain-http server and for one that does not offer HTTP/2 in its TLS handshake.
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { collectAnswer, type TlsMaterial, type Wire, type WireRequest } from './kube-wire.js';
import { KubeWireError } from './kube-wire-error.js';

/** HTTP/1.1 keep-alive connections to one server. */
export class Http1Wire implements Wire {
  private readonly agent: http.Agent;
  private readonly secure: boolean;

  constructor(
    private readonly server: URL,
    maxSockets: number,
  ) {
    this.secure = server.protocol === 'https:';
    const options = { keepAlive: true, maxSockets };
    this.agent = this.secure ? new https.Agent(options) : new http.Agent(options);
  }

  protocol(): 'http/1.1' {
    return 'http/1.1';
  }

  exchange(req: WireRequest, tls: TlsMaterial): ReturnType<Wire['exchange']> {
    return new Promise((resolve, reject) => {
      const r = this.send(req, tls, (res) => {
        const retryAfter = res.headers['retry-after'];
        collectAnswer(res, res.statusCode ?? 0, retryAfter).then(resolve, reject);
      });
      r.on('timeout', () =>
        r.destroy(new KubeWireError('WireTimeout', `timed out after ${req.timeoutMs} ms`)),
      );
      r.on('error', reject);
      r.end(req.body);
    });
  }

  open(req: WireRequest, tls: TlsMaterial, signal: AbortSignal): ReturnType<Wire['open']> {
    return new Promise((resolve, reject) => {
      const r = this.send(
        req,
        tls,
        (res) => resolve({ status: res.statusCode ?? 0, body: res as Readable }),
        {
          signal,
        },
      );
      r.on('error', reject);
      r.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }

  private send(
    req: WireRequest,
    tls: TlsMaterial,
    onResponse: (res: http.IncomingMessage) => void,
    extra: { signal?: AbortSignal } = {},
  ): http.ClientRequest {
    const options: https.RequestOptions = {
      ...(this.secure ? tls.options : {}),
      ...extra,
      agent: this.agent,
      host: this.server.hostname.replace(/^\[|\]$/g, ''),
      port: this.server.port,
      method: req.method,
      path: req.path,
      headers: req.headers,
      ...(req.timeoutMs > 0 ? { timeout: req.timeoutMs } : {}),
    };
    return this.secure ? https.request(options, onResponse) : http.request(options, onResponse);
  }
}
