// HTTP/2 to one API server: every request a stream on one TLS connection, as kubectl and
// client-go talk to it. Measured on the test clusters (docs/performance-agent.md) it costs the
// agent about half the CPU per request of HTTP/1.1 keep-alive sockets, and the server no more.
//
// The TLS handshake offers h2 and http/1.1 (ALPN); a server (or a proxy in between) that picks
// http/1.1 is talked to over Http1Wire from then on. The connection is opened on the first
// request and again after it closes, fails, or the server sends GOAWAY (in-flight streams
// finish on the old one); new credentials (the kubeconfig's TLS material changed) get a new
// connection too. A request that times out cancels its stream only, but the connection must
// then answer a PING within `pingTimeoutMs` or be dropped, so a connection that went silent
// (a dead peer, no RST) is not kept for every request after it. While no request is in
// flight, the connection does not keep the process alive. Watches are not multiplexed (see
// `open`).
import http2 from 'node:http2';
import { isIP } from 'node:net';
import tls from 'node:tls';
import { Http1Wire } from './http1-wire.js';
import {
  collectAnswer,
  type TlsMaterial,
  type Wire,
  type WireAnswer,
  type WireProtocol,
  type WireRequest,
} from './kube-wire.js';
import { KubeWireError } from './kube-wire-error.js';

type Session = http2.ClientHttp2Session;

const pingTimeoutMs = 10_000;
const connectTimeoutMs = 30_000;

/** HTTP/2 to one server, or HTTP/1.1 when the server does not offer it. */
export class Http2Wire implements Wire {
  private current: { id: string; session: Promise<Session | 'http/1.1'> } | undefined;
  private http1: Http1Wire | undefined;
  /** Streams open per connection: a connection with none is unref'd. */
  private readonly streamsOpen = new WeakMap<Session, number>();
  private readonly host: string;
  private negotiated: WireProtocol | undefined;

  constructor(
    private readonly server: URL,
    private readonly maxSockets: number,
  ) {
    this.host = server.hostname.replace(/^\[|\]$/g, '');
  }

  async exchange(req: WireRequest, tls: TlsMaterial): ReturnType<Wire['exchange']> {
    const session = await this.session(tls);
    if (session === 'http/1.1') return this.fallback().exchange(req, tls);
    const stream = this.request(session, req);
    const timeoutMs = req.timeoutMs;
    return new Promise((resolve, reject) => {
      // A finished stream outlives its exchange: in a heap profile of 10,000 applies its objects
      // reached V8's old generation and went only at a full collection (why young-generation
      // collections keep them was not established). So it is left holding nothing of the request
      // or the answer: every listener here and in collectAnswer comes off when the exchange
      // settles. Before, each stream carried its request body, its answer and their promises
      // along (promoted per young collection: 3.3-3.5 MB before, 2.3 MB after).
      const onTimeout = () => {
        stream.close(http2.constants.NGHTTP2_CANCEL);
        fail(new KubeWireError('WireTimeout', `timed out after ${timeoutMs} ms`));
        this.checkAlive(session);
      };
      const onResponse = (headers: http2.IncomingHttpHeaders) => {
        responded = true;
        const retryAfter = headers['retry-after'];
        collectAnswer(
          stream,
          Number(headers[':status']),
          typeof retryAfter === 'string' ? retryAfter : undefined,
        ).then(done, fail);
      };
      const onClose = () => responded || fail(closedEarly(stream));
      const detach = () => {
        if (timeoutMs > 0) stream.setTimeout(0, onTimeout);
        stream.removeListener('response', onResponse);
        stream.removeListener('error', fail);
        stream.removeListener('close', onClose);
      };
      const done = (answer: WireAnswer) => {
        detach();
        resolve(answer);
      };
      function fail(error: Error): void {
        detach();
        reject(error);
      }
      let responded = false;
      if (timeoutMs > 0) stream.setTimeout(timeoutMs, onTimeout);
      stream.on('response', onResponse);
      stream.on('error', fail);
      // An error after the exchange settled has no one to tell (and must not be unhandled).
      stream.on('error', ignore);
      stream.on('close', onClose);
      stream.end(req.body);
    });
  }

  /**
   * Watches go over HTTP/1.1, a socket each: a long-lived stream held on the shared connection
   * would count against the server's limit of concurrent streams there, and enough of them
   * (one per watched kind) would hold back every request behind them.
   */
  open(req: WireRequest, tls: TlsMaterial, signal: AbortSignal): ReturnType<Wire['open']> {
    return this.fallback().open(req, tls, signal);
  }

  protocol(): WireProtocol | undefined {
    return this.negotiated;
  }

  close(): void {
    const current = this.current;
    this.current = undefined;
    current?.session.then(
      (s) => s !== 'http/1.1' && s.destroy(),
      () => undefined,
    );
    this.http1?.close();
  }

  /** Opens a stream, keeping the process alive while any is open. */
  private request(session: Session, req: WireRequest): http2.ClientHttp2Stream {
    const stream = session.request(
      { ':method': req.method, ':path': req.path, ...req.headers },
      { endStream: req.body === undefined },
    );
    const count = this.streamsOpen.get(session) ?? 0;
    this.streamsOpen.set(session, count + 1);
    if (count === 0) session.ref();
    stream.once('close', () => {
      const left = (this.streamsOpen.get(session) ?? 1) - 1;
      this.streamsOpen.set(session, left);
      if (left === 0) session.unref();
    });
    return stream;
  }

  /** Returns the connection for these credentials, opening one when there is none. */
  private session(material: TlsMaterial): Promise<Session | 'http/1.1'> {
    const current = this.current;
    if (current?.id === material.id) return current.session;
    if (current)
      current.session.then(
        (s) => s !== 'http/1.1' && s.close(),
        () => undefined,
      );
    const session = this.connect(material);
    const entry = { id: material.id, session };
    this.current = entry;
    session.then(
      (s) => {
        if (s === 'http/1.1') return;
        const forget = () => {
          if (this.current === entry) this.current = undefined;
        };
        s.on('close', forget);
        s.on('goaway', forget);
        s.on('error', forget);
      },
      () => {
        if (this.current === entry) this.current = undefined;
      },
    );
    return session;
  }

  /** Connects with TLS; resolves with an HTTP/2 session, or 'http/1.1' when the server chose that. */
  private connect(material: TlsMaterial): Promise<Session | 'http/1.1'> {
    return new Promise((resolve, reject) => {
      const socket = tls.connect({
        ...(isIP(this.host) ? {} : { servername: this.host }),
        ...material.options,
        host: this.host,
        port: Number(this.server.port || 443),
        ALPNProtocols: ['h2', 'http/1.1'],
      });
      socket.setTimeout(connectTimeoutMs, () =>
        socket.destroy(new KubeWireError('WireTimeout', `no TLS handshake within ${connectTimeoutMs} ms`)),
      );
      socket.once('error', reject);
      socket.once('secureConnect', () => {
        socket.setTimeout(0);
        socket.removeListener('error', reject);
        this.negotiated = socket.alpnProtocol === 'h2' ? 'h2' : 'http/1.1';
        if (this.negotiated !== 'h2') {
          socket.destroy();
          resolve('http/1.1');
          return;
        }
        const session = http2.connect(this.server.origin, { createConnection: () => socket });
        // Errors also end the session ('close'); the streams in flight get them as their own.
        session.on('error', () => undefined);
        session.unref();
        resolve(session);
      });
    });
  }

  /** Drops the connection unless it answers a PING soon. */
  private checkAlive(session: Session): void {
    if (session.destroyed || session.closed) return;
    const timer = setTimeout(() => session.destroy(), pingTimeoutMs);
    timer.unref();
    session.ping((error) => {
      clearTimeout(timer);
      if (error) session.destroy();
    });
  }

  private fallback(): Http1Wire {
    return (this.http1 ??= new Http1Wire(this.server, this.maxSockets));
  }
}

function closedEarly(stream: http2.ClientHttp2Stream): Error {
  return new KubeWireError(
    'StreamReset',
    `the stream closed before an answer (HTTP/2 code ${stream.rstCode ?? 'none'})`,
  );
}

function ignore(): void {}
