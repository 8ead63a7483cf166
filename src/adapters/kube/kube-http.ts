// HTTP to one API server with the credentials of a kubeconfig context (loaded and applied by
// @kubernetes/client-node's KubeConfig), over HTTP/2 when the server offers it and HTTP/1.1
// keep-alive connections otherwise (http2-wire.ts). Bodies go out exactly as the caller gives
// them: no typed model, no serializer that could drop a field it does not know.
//
// Every request is counted; a mutating request is a POST, PUT, PATCH or DELETE without
// `dryRun` (an access review, answered and never stored, is not one), so a pass that changes nothing can prove it made none.
import { createHash } from 'node:crypto';
import type https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { ConfigError } from '../../core/model/config-error.js';
import { Http1Wire } from './http1-wire.js';
import { Http2Wire } from './http2-wire.js';
import { KubeApiError, refusalOf } from './kube-error.js';
import type { TlsMaterial, Wire, WireProtocol, WireRequest } from './kube-wire.js';
import { KubeWireError } from './kube-wire-error.js';

export type Verb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface KubeRequest {
  method: Verb;
  /** Absolute API path, e.g. `/api/v1/namespaces/default/configmaps`. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: string;
  contentType?: string;
  accept?: string;
  timeoutMs?: number;
  /** The user to act as (Kubernetes impersonation: the `Impersonate-User` header); the API server checks our right to. */
  impersonate?: string;
}

export interface KubeAnswer {
  status: number;
  body: string;
}

/** Requests made since the counts were last reset. */
export interface RequestCounts {
  total: number;
  mutating: number;
  dryRun: number;
}

export interface KubeHttpOptions {
  /** HTTP/1.1 connections at most (when the server does not speak HTTP/2, or `http2` is false). */
  maxSockets?: number;
  /** Use HTTP/2 when the server offers it (default true). */
  http2?: boolean;
  /** The bearer token of each request, asked for each time (in-cluster: the rotating ServiceAccount token). */
  bearerToken?: () => string;
}

const authRefreshMs = 60_000;

/** Where SelfSubjectAccessReviews are sent: a POST that stores nothing, so not counted as a write. */
export const reviewPath = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const maxAttempts = 8;

/** A connection to one API server. */
export class KubeHttp {
  private counts: RequestCounts = { total: 0, mutating: 0, dryRun: 0 };
  private auth: Promise<Credentials> | undefined;
  private authAt = 0;
  private readonly wire: Wire;
  private readonly base: string;
  private readonly bearerToken: (() => string) | undefined;

  constructor(
    private readonly kc: KubeConfig,
    opts: KubeHttpOptions = {},
  ) {
    this.bearerToken = opts.bearerToken;
    const cluster = kc.getCurrentCluster();
    if (!cluster)
      throw new ConfigError(
        'InvalidKubeconfig',
        `kubeconfig: context ${kc.getCurrentContext()} has no cluster`,
      );
    const server = new URL(cluster.server);
    this.base = server.pathname.replace(/\/$/, '');
    const maxSockets = opts.maxSockets ?? 32;
    this.wire =
      server.protocol === 'https:' && opts.http2 !== false
        ? new Http2Wire(server, maxSockets)
        : new Http1Wire(server, maxSockets);
  }

  /** Returns a copy of the request counts. */
  requestCounts(): RequestCounts {
    return { ...this.counts };
  }

  /** Sets every count back to zero. */
  resetCounts(): void {
    this.counts = { total: 0, mutating: 0, dryRun: 0 };
  }

  /** Returns the protocol requests go over ('h2' or 'http/1.1'), undefined before the first connection. */
  protocol(): WireProtocol | undefined {
    return this.wire.protocol();
  }

  /** Closes the connections. */
  close(): void {
    this.wire.close();
  }

  /**
   * Returns the server's answer (any status); throws KubeApiError (code 0) when there is none.
   * A 429 (the server is throttling, or a new resource's storage is still initializing right
   * after its CRD got Established) was not processed, so it is sent again after the delay the
   * server asks for, a few times.
   */
  async request(req: KubeRequest): Promise<KubeAnswer> {
    for (let attempt = 1; ; attempt++) {
      const answer = await this.requestOnce(req);
      if (answer.status !== 429 || attempt >= maxAttempts) return answer;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(answer.retryAfterMs ?? 200 * attempt, 2000)),
      );
    }
  }

  private async requestOnce(req: KubeRequest): Promise<KubeAnswer & { retryAfterMs?: number }> {
    this.count(req);
    const auth = await this.credentials();
    let answer;
    try {
      answer = await this.wire.exchange(this.onWire(req, auth), auth.tls);
    } catch (error) {
      throw noAnswer(req, error as Error);
    }
    const retryAfter = Number(answer.retryAfter);
    return {
      status: answer.status,
      body: answer.body,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
    };
  }

  /**
   * Streams a long-running GET (a watch): calls `onLine` for each line of the body. Resolves
   * when the server ends the stream or `signal` aborts; a non-200 answer rejects.
   */
  async stream(req: KubeRequest, onLine: (line: string) => void, signal: AbortSignal): Promise<void> {
    this.count(req);
    const auth = await this.credentials();
    let opened;
    try {
      opened = await this.wire.open(this.onWire({ ...req, timeoutMs: 0 }, auth), auth.tls, signal);
    } catch (error) {
      if (signal.aborted) return;
      throw noAnswer(req, error as Error);
    }
    const { status, body } = opened;
    if (status !== 200) {
      const text = await new Promise<string>((resolve) => {
        let all = '';
        body.on('data', (c: Buffer) => (all += c.toString('utf8')));
        body.on('end', () => resolve(all));
        body.on('error', () => resolve(all));
      });
      throw new KubeApiError(`GET ${req.path}`, refusalOf(status, text));
    }
    return new Promise((resolve, reject) => {
      let pending = '';
      let ended = false;
      body.setEncoding('utf8');
      body.on('data', (chunk: string) => {
        pending += chunk;
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          // A line its reader cannot take (not JSON: a proxy's page) fails this watch, which
          // is restarted; thrown out of this 'data' handler it would end the process.
          try {
            if (line.trim() !== '') onLine(line);
          } catch (error) {
            ended = true;
            body.destroy();
            reject(
              noAnswer(
                req,
                error instanceof Error ? error : new KubeWireError('UnreadableAnswer', String(error)),
              ),
            );
            return;
          }
        }
      });
      body.on('end', () => {
        ended = true;
        resolve();
      });
      const broken = (err: Error) => (signal.aborted ? resolve() : reject(noAnswer(req, err)));
      body.on('error', broken);
      body.on(
        'close',
        () =>
          ended || broken(new KubeWireError('ConnectionClosed', 'the connection closed during the watch')),
      );
    });
  }

  private count(req: KubeRequest): void {
    this.counts.total++;
    if (req.method === 'GET' || req.path === reviewPath) return;
    if (req.query?.['dryRun'] !== undefined) this.counts.dryRun++;
    else this.counts.mutating++;
  }

  /** The request as the wire sends it: path with query, headers with the credentials. */
  private onWire(req: KubeRequest, auth: Credentials): WireRequest {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(req.query ?? {}))
      if (value !== undefined) query.set(key, value);
    const qs = query.toString();
    const headers: Record<string, string> = { ...auth.headers, accept: req.accept ?? 'application/json' };
    if (this.bearerToken) headers['authorization'] = `Bearer ${this.bearerToken()}`;
    if (req.contentType) headers['content-type'] = req.contentType;
    if (req.impersonate) headers['impersonate-user'] = req.impersonate;
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    return {
      method: req.method,
      path: `${this.base}${req.path}${qs ? `?${qs}` : ''}`,
      headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
      timeoutMs: req.timeoutMs ?? 60_000,
    };
  }

  /** TLS material and credentials of the context, re-read now and then (exec plugins rotate tokens). */
  private credentials(): Promise<Credentials> {
    const now = Date.now();
    if (!this.auth || now - this.authAt > authRefreshMs) {
      const pending = credentialsOf(this.kc);
      this.auth = pending;
      this.authAt = now;
      // A failed read is the caller's error, and tried again on the next request.
      pending.catch(() => {
        if (this.auth === pending) this.auth = undefined;
      });
    }
    return this.auth;
  }
}

interface Credentials {
  tls: TlsMaterial;
  /** Headers every request carries (Authorization, Impersonate-User), lower-case names. */
  headers: Record<string, string>;
}

const tlsFields = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const;

/** Returns what the kubeconfig context says to connect and authenticate with. */
async function credentialsOf(kc: KubeConfig): Promise<Credentials> {
  const options: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(options);
  const tls: Record<string, unknown> = {};
  const id = createHash('sha256');
  for (const field of tlsFields) {
    const value = options[field];
    if (value === undefined) continue;
    tls[field] = value;
    id.update(`${field}=${Buffer.isBuffer(value) ? value.toString('base64') : JSON.stringify(value)}\n`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value !== undefined)
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  if (options.auth) headers['authorization'] = `Basic ${Buffer.from(options.auth).toString('base64')}`;
  return { tls: { options: tls, id: id.digest('hex') }, headers };
}

function noAnswer(req: KubeRequest, err: Error): KubeApiError {
  return new KubeApiError(`${req.method} ${req.path}`, { code: 0, message: err.message });
}
