// The hub's doorbell (`hub --notify-addr HOST:PORT`, docs/git-budget.md#doorbell): agents hold
// one long-poll request here instead of asking the Git host every second whether their branch
// moved. Plain HTTP: TLS is the Ingress's job in front of it.
//
//   request                                   answer
//   GET  /v1/clusters/<name>/wait?after=<c>   200 {"head": …} at once when the branch's head is not <c>
//                                             (null: no branch); else held until it moves (200) or
//                                             for `holdMs` (204, ask again)
//   POST /v1/clusters/<name>/beacon           204: a liveness beacon (the wait is one too)
//   GET  /v1/clusters/<name>/pacing[?start=1] 200 {"pushSlot": {periodMs, offsetMs, widthMs} | null,
//                                             "startInMs": n}: the agent's push slot, and with
//                                             start=1 how long a starting agent waits to fetch
//   without the cluster's bearer token        401, the same whether the cluster exists or not
//   on a replica that does not lead           503 with Retry-After (agents fall back to polling)
//   past the waiters' bounds                  429 (per cluster) or 503 (in all), with Retry-After
//   another path or method                    404 or 405
//
// The heads are the hub's: `head` says where the hub last pushed the branch (undefined: not
// known yet, so the wait is held), and `moved` is called after a push succeeded, never before,
// so an agent told "moved" finds the commit on the Git host. A Host header that names neither
// the bound address nor localhost is refused (421), as the dashboard does (ui-server.ts); a
// wildcard bind (a Pod behind an Ingress) takes any. Every socket has a timeout.
//
// Pacing (docs/git-budget.md#pacing): with `ringsPerSecond`, an answer that sends an agent to
// fetch (its branch moved, or its wait named an old head) waits for the cluster's turn on the
// timeline of the repository its branch lives in (ring-timelines.ts: one per render repository,
// `timelineOf`, and one for the rest), and a starting agent is given a turn of its own on the
// default one, so that one push to every branch, or a fleet started together, fetches within
// each repository's read budget.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitfleetError } from '../../core/model/gitfleet-error.js';
import { isLoopbackHost, isWildcardHost } from './ui-server.js';
import { isTokenOf, type NotifyTokens } from './notify-tokens.js';
import { createNotifyWaiters, type NotifyWaiters } from './notify-waiters.js';
import type { RingPacer } from './ring-pacer.js';
import { ringTimelines, type RingTimeline } from './ring-timelines.js';
import { readsPerStart, startTurnsOf, type PushSlot } from '../../core/budget/plan-pacing.js';

export interface NotifyServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** The clusters' tokens, or a function giving them as they are now (a file read again when it changes). */
  tokens: NotifyTokens | (() => NotifyTokens);
  /** Where the hub last pushed the cluster's branch (null: no branch; undefined: not known yet). */
  head: (cluster: string) => string | null | undefined;
  /** Whether this replica answers now (it leads); default always. */
  serving?: () => boolean;
  /** Told of every authenticated request of a cluster: a sign its agent is alive. */
  onBeacon?: (cluster: string) => void;
  /** Longest hold of a wait (default 55 s, below the usual 60 s proxy idle timeout). */
  holdMs?: number;
  /** Bounds of held waits: per cluster (default 4) and in all (default 10,000). */
  maxWaitersPerCluster?: number;
  maxWaiters?: number;
  /** One-shot timers (the hub's clock), for the holds. */
  setTimer: (callback: () => void, delayMs: number) => () => void;
  /** The pacing of fetches and pushes (core/budget/plan-pacing.ts); absent: none, answers at once. */
  pacing?: NotifyPacing;
}

/** What the doorbell paces. */
export interface NotifyPacing {
  /** Fetches a second it sends (rings and starts); undefined: no pacing of fetches. */
  ringsPerSecond?: number;
  /** A cluster whose branch lives in a render repository: that repository's timeline (ring-timelines.ts). */
  timelineOf?: (cluster: string) => RingTimeline | undefined;
  /** Turns of the default timeline the cluster's start takes (default startTurnsOf(readsPerStart)). */
  startTurns?: (cluster: string) => number;
  /** The cluster's push slot; undefined: pushes not paced; 'unknown': not known yet (503, ask again). */
  pushSlot: (cluster: string) => PushSlot | undefined | 'unknown';
  /** The hub's clock, milliseconds. */
  now: () => number;
}

/** A running doorbell. */
export interface NotifyServer {
  /** e.g. http://127.0.0.1:8090 */
  url: string;
  /** Answers the waits of a cluster whose branch the hub just pushed to `head`. */
  moved(cluster: string, head: string | null): void;
  /** Answers every held wait 503 (this replica stopped leading). */
  standDown(): void;
  /** How many waits are held now. */
  waiting(): number;
  close(): Promise<void>;
}

/** The doorbell could not listen. */
export class NotifyServerError extends GitfleetError<'AddressInUse' | 'ListenFailed'> {
  constructor(code: 'AddressInUse' | 'ListenFailed', message: string, cause: unknown) {
    super(message, { code, terminal: true, cause });
  }
}

const route = /^\/v1\/clusters\/([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/(wait|beacon|pacing)$/;
const retryAfterSeconds = '5';
/** Turns of the ring timeline a start takes (core/budget/plan-pacing.ts startTurnsOf). */
const startTurns = startTurnsOf(readsPerStart);

/** Starts the doorbell; throws NotifyServerError when the address cannot be listened on. */
export async function startNotifyServer(opts: NotifyServerOptions): Promise<NotifyServer> {
  const host = opts.host ?? '127.0.0.1';
  const holdMs = opts.holdMs ?? 55_000;
  const waiters = createNotifyWaiters({
    perCluster: opts.maxWaitersPerCluster ?? 4,
    total: opts.maxWaiters ?? 10_000,
    holdMs,
    setTimer: opts.setTimer,
  });
  let port = opts.port;
  const rate = opts.pacing?.ringsPerSecond;
  const rings =
    rate === undefined || opts.pacing === undefined
      ? undefined
      : ringTimelines({
          perSecond: rate,
          now: opts.pacing.now,
          setTimer: opts.setTimer,
          ...(opts.pacing.timelineOf ? { timelineOf: opts.pacing.timelineOf } : {}),
        });
  // At the cluster's turn its waits get the head as it is then.
  const ring = (cluster: string): void =>
    rings?.ring(cluster, () => {
      const head = opts.head(cluster);
      if (head !== undefined) waiters.moved(cluster, head);
    });
  const server = createServer((req, res) => {
    try {
      answer(req, res, { opts, host, port, waiters, ...(rings ? { ring } : {}), rings });
    } catch (error) {
      if (!res.headersSent) send(res, 500, `${(error as Error).message}\n`);
      else res.end();
    }
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  // An idle socket (a held wait included) is closed past the hold and a margin.
  server.timeout = holdMs + 15_000;
  server.keepAliveTimeout = 5_000;
  await listen(server, host, opts.port);
  port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    moved: (cluster, head) => (rings ? ring(cluster) : waiters.moved(cluster, head)),
    standDown: () => waiters.answerAll(503),
    waiting: () => waiters.size(),
    close: () =>
      new Promise<void>((resolve) => {
        rings?.close();
        waiters.answerAll(503);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// Listens on the address; a failure is a NotifyServerError naming it.
function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      reject(
        error.code === 'EADDRINUSE'
          ? new NotifyServerError('AddressInUse', `${where}: the doorbell's address is in use`, error)
          : new NotifyServerError(
              'ListenFailed',
              `${where}: the doorbell cannot listen: ${error.message}`,
              error,
            ),
      );
    });
    server.listen(port, host, () => resolve());
  });
}

interface Context {
  opts: NotifyServerOptions;
  host: string;
  port: number;
  waiters: NotifyWaiters;
  /** With paced fetches: answers the cluster's waits at its turn. */
  ring?: (cluster: string) => void;
  rings: RingPacer | undefined;
}

function answer(req: IncomingMessage, res: ServerResponse, ctx: Context): void {
  if (!isAllowedHost(req.headers.host, ctx)) return send(res, 421, 'unknown Host header\n');
  const url = new URL(req.url ?? '/', 'http://localhost');
  const match = route.exec(url.pathname);
  const cluster = match?.[1];
  const verb = match?.[3];
  if (cluster === undefined || verb === undefined) return send(res, 404, 'not found\n');
  const method = verb === 'beacon' ? 'POST' : 'GET';
  if (req.method !== method) return send(res, 405, 'method not allowed\n', { Allow: method });
  // Nothing is read of a request's body: drain it, so the socket can serve the next request.
  req.resume();
  const tokens = typeof ctx.opts.tokens === 'function' ? ctx.opts.tokens() : ctx.opts.tokens;
  if (!isTokenOf(tokens, cluster, bearerOf(req.headers.authorization)))
    return send(res, 401, 'unauthorized\n', { 'WWW-Authenticate': 'Bearer realm="gitfleet doorbell"' });
  if (ctx.opts.serving && !ctx.opts.serving())
    return send(res, 503, 'this hub replica does not lead\n', { 'Retry-After': retryAfterSeconds });
  ctx.opts.onBeacon?.(cluster);
  if (verb === 'beacon') return send(res, 204, '');
  if (verb === 'pacing') return sendPacing(res, ctx, cluster, url.searchParams.get('start') === '1');
  const after = url.searchParams.get('after') ?? '';
  const head = ctx.opts.head(cluster);
  const stale = head !== undefined && (head ?? '') !== after;
  // Paced, a wait that would fetch at once is held for the cluster's turn instead.
  if (stale && ctx.ring === undefined) return sendHead(res, head);
  const held = ctx.waiters.hold(cluster, after, (outcome) => {
    if (outcome === 204) send(res, 204, '');
    else if (outcome === 503)
      send(res, 503, 'this hub replica stopped leading\n', { 'Retry-After': retryAfterSeconds });
    else sendHead(res, outcome.head);
  });
  if (held.type !== 'held') {
    const status = held.type === 'clusterFull' ? 429 : 503;
    return send(res, status, 'too many waits held\n', { 'Retry-After': retryAfterSeconds });
  }
  res.on('close', held.release);
  if (stale) ctx.ring?.(cluster);
}

function sendPacing(res: ServerResponse, ctx: Context, cluster: string, starting: boolean): void {
  const pushSlot = ctx.opts.pacing?.pushSlot(cluster) ?? null;
  if (pushSlot === 'unknown')
    return send(res, 503, 'the hub does not know its clusters yet\n', { 'Retry-After': retryAfterSeconds });
  // A first fetch reads more than a ring's (the advertisement; a render repository's agent, the bindings twice).
  const turns = ctx.opts.pacing?.startTurns?.(cluster) ?? startTurns;
  const startInMs = starting && ctx.rings ? Math.ceil(ctx.rings.reserve(turns)) : 0;
  send(res, 200, `${JSON.stringify({ pushSlot, startInMs })}\n`, { 'Content-Type': 'application/json' });
}

function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer ([^\s]+)$/i.exec(header ?? '');
  return match?.[1];
}

function sendHead(res: ServerResponse, head: string | null): void {
  send(res, 200, `${JSON.stringify({ head })}\n`, { 'Content-Type': 'application/json' });
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.writableEnded) return;
  res.writeHead(status, {
    'Cache-Control': 'no-store',
    ...(status === 204 ? {} : { 'Content-Type': 'text/plain; charset=utf-8' }),
    ...headers,
  });
  res.end(status === 204 ? undefined : body);
}

// As the dashboard's guard (ui-server.ts): the Host must name the bound address, or loopback
// on a loopback bind; a wildcard bind, behind an Ingress, takes any.
function isAllowedHost(header: string | undefined, ctx: Context): boolean {
  if (isWildcardHost(ctx.host)) return true;
  if (header === undefined) return false;
  const port = String(ctx.port);
  const bound = ctx.host.includes(':') && !ctx.host.startsWith('[') ? `[${ctx.host}]` : ctx.host;
  const allowed = [`${bound}:${port}`.toLowerCase()];
  if (isLoopbackHost(ctx.host)) allowed.push(`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`);
  return allowed.includes(header.toLowerCase());
}
