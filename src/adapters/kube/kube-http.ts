// HTTP to one API server with the credentials of a kubeconfig context (loaded and applied by
// @kubernetes/client-node's KubeConfig), over keep-alive connections. Bodies go out exactly as
// the caller gives them: no typed model, no serializer that could drop a field it does not know.
//
// Every request is counted; a mutating request is a POST, PUT, PATCH or DELETE without
// `dryRun` (an access review, answered and never stored, is not one), so a pass that changes nothing can prove it made none.
import http from 'node:http';
import { ConfigError } from '../../core/model/config-error.js';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { KubeApiError, refusalOf } from './kube-error.js';

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
  maxSockets?: number;
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
  private auth: { at: number; options: https.RequestOptions } | undefined;
  private readonly agent: http.Agent;
  private readonly server: URL;
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
    this.server = new URL(cluster.server);
    const secure = this.server.protocol === 'https:';
    const agentOptions = { keepAlive: true, maxSockets: opts.maxSockets ?? 32 };
    this.agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  }

  /** Returns a copy of the request counts. */
  requestCounts(): RequestCounts {
    return { ...this.counts };
  }

  /** Sets every count back to zero. */
  resetCounts(): void {
    this.counts = { total: 0, mutating: 0, dryRun: 0 };
  }

  /** Closes the idle connections. */
  close(): void {
    this.agent.destroy();
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
    const options = await this.options(req);
    return new Promise((resolve, reject) => {
      const r = this.transport().request(this.url(req), options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        const retryAfter = Number(res.headers['retry-after']);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
          }),
        );
        res.on('error', (err) => reject(noAnswer(req, err)));
      });
      r.on('timeout', () => r.destroy(new Error(`timed out after ${req.timeoutMs ?? 60_000} ms`)));
      r.on('error', (err) => reject(noAnswer(req, err)));
      r.end(req.body);
    });
  }

  /**
   * Streams a long-running GET (a watch): calls `onLine` for each line of the body. Resolves
   * when the server ends the stream or `signal` aborts; a non-200 answer rejects.
   */
  async stream(req: KubeRequest, onLine: (line: string) => void, signal: AbortSignal): Promise<void> {
    this.count(req);
    const options = { ...(await this.options({ ...req, timeoutMs: 0 })), signal };
    return new Promise((resolve, reject) => {
      const r = this.transport().request(this.url(req), options, (res) => {
        if (res.statusCode !== 200) {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString('utf8')));
          res.on('end', () =>
            reject(new KubeApiError(`GET ${req.path}`, refusalOf(res.statusCode ?? 0, body))),
          );
          return;
        }
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          pending += chunk;
          let nl: number;
          while ((nl = pending.indexOf('\n')) >= 0) {
            const line = pending.slice(0, nl);
            pending = pending.slice(nl + 1);
            if (line.trim() !== '') onLine(line);
          }
        });
        res.on('end', () => resolve());
        res.on('error', (err) => (signal.aborted ? resolve() : reject(noAnswer(req, err))));
      });
      r.on('error', (err) => (signal.aborted ? resolve() : reject(noAnswer(req, err))));
      r.end();
    });
  }

  private transport(): typeof https | typeof http {
    return this.server.protocol === 'https:' ? https : http;
  }

  private count(req: KubeRequest): void {
    this.counts.total++;
    if (req.method === 'GET' || req.path === reviewPath) return;
    if (req.query?.['dryRun'] !== undefined) this.counts.dryRun++;
    else this.counts.mutating++;
  }

  private url(req: KubeRequest): URL {
    const base = this.server.pathname.replace(/\/$/, '');
    const url = new URL(`${base}${req.path}`, this.server);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    return url;
  }

  /** TLS material and credentials of the context, re-read now and then (exec plugins rotate tokens). */
  private async options(req: KubeRequest): Promise<https.RequestOptions> {
    const now = Date.now();
    if (!this.auth || now - this.auth.at > authRefreshMs) {
      const options: https.RequestOptions = {};
      await this.kc.applyToHTTPSOptions(options);
      delete options.agent;
      this.auth = { at: now, options };
    }
    const base = this.auth.options;
    return {
      ...base,
      agent: this.agent,
      method: req.method,
      ...(req.timeoutMs === 0 ? {} : { timeout: req.timeoutMs ?? 60_000 }),
      headers: {
        ...(base.headers as Record<string, string> | undefined),
        ...(this.bearerToken ? { authorization: `Bearer ${this.bearerToken()}` } : {}),
        accept: req.accept ?? 'application/json',
        ...(req.contentType ? { 'content-type': req.contentType } : {}),
        ...(req.body !== undefined ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}),
      },
    };
  }
}

function noAnswer(req: KubeRequest, err: Error): KubeApiError {
  return new KubeApiError(`${req.method} ${req.path}`, { code: 0, message: err.message });
}
