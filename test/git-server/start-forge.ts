// A Git host's rate limits, emulated for tests and benchmarks: the smart-HTTP server of
// start-git-server.ts (git's own `git http-backend`, chunked and gzip'd bodies passed through)
// behind a per-repository counter and budget, answering as GitHub does when it is exceeded.
//
//   counted per repository      what
//   advertisements              GET …/info/refs (either service)
//   uploadPacks                 POST …/git-upload-pack (ls-refs and fetch)
//   reads                       advertisements + uploadPacks (GitHub's "Git reads")
//   pushes                      POST …/git-receive-pack (a large push is two: git probes first)
//   limited                     answers 429 sent; forbidden: answers 403 (secondary limit) sent
//
// Only served requests count as reads and pushes; a refused one counts in limited/forbidden.
// The budget is over sliding windows by the injected clock: at most readsPerSecond × window
// reads in the last `readWindowMs`, at most pushesPerMinute pushes in the last minute. Past it:
// 429 with Retry-After (seconds until the oldest counted request leaves the window) and
// X-RateLimit-Limit/Remaining/Reset (epoch seconds). `limitFor` makes the forge refuse every
// request for a stretch of the clock ("429 for an hour"), as 429 + Retry-After or as GitHub's
// secondary limit: 403 with X-RateLimit-Remaining: 0 and a "secondary rate limit" message.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hasToken, runBackend } from './start-git-server.js';

export interface ForgeBudget {
  /** Reads per second a repository may make, averaged over `readWindowMs` (default: no limit). */
  readsPerSecond?: number;
  /** The sliding window of the read budget (default 1 s). */
  readWindowMs?: number;
  /** Pushes a repository may take in any 60 s (default: no limit). */
  pushesPerMinute?: number;
}

export interface ForgeOptions {
  /** Directory holding the served repositories. */
  root: string;
  budget?: ForgeBudget;
  /** Milliseconds since the epoch (default Date.now): tests drive the windows and limits with it. */
  now?: () => number;
  /** Told of every read and push served, and every refusal (a benchmark's peak windows are made of these). */
  onRequest?: (event: ForgeEvent) => void;
  /** Told when a served read or push was answered, with how long it took and its method (GET: an advertisement) (a benchmark's trace). */
  onAnswered?: (event: ForgeEvent & { ms: number; method: string }) => void;
  /**
   * Requests presenting this token (any user name, or Bearer) are served by git processes at
   * this niceness: counted and budgeted as every other, their CPU yields to the rest (the budget
   * bench's background agents, so that the hub and the agents it observes get the CPU they would
   * have on machines of their own: docs/git-budget.md#measured).
   */
  background?: { token: string; nice: number };
}

/** One request the forge served (a read or a push) or refused (429 or 403), at its clock's time. */
export interface ForgeEvent {
  repo: string;
  kind: 'read' | 'push' | 'limited' | 'forbidden';
  at: number;
}

/** A stretch during which the forge refuses requests. */
export interface ForgeLimit {
  /** How long, by the forge's clock. */
  forMs: number;
  /** 429 (default) or 403 as GitHub's secondary rate limit. */
  status?: 429 | 403;
  /** Retry-After sent with each refusal (default 60); null sends none (X-RateLimit-Reset only). */
  retryAfterSeconds?: number | null;
  /** Only this repository (default: every one). */
  repo?: string;
}

/** What one repository was sent and answered. */
export interface ForgeCounts {
  advertisements: number;
  uploadPacks: number;
  reads: number;
  pushes: number;
  limited: number;
  forbidden: number;
}

/** A running forge. */
export interface Forge {
  /** The clone URL of a repository under the root, e.g. url('fleet.git'). */
  url(repo: string): string;
  /** The counts of a repository (by its path under the root, e.g. 'fleet.git'); zeros when unseen. */
  counts(repo: string): ForgeCounts;
  /** Every repository's counts. */
  allCounts(): Map<string, ForgeCounts>;
  /** Refuses requests from now until `forMs` later by the forge's clock. */
  limitFor(limit: ForgeLimit): void;
  /** Lifts every limit set by limitFor (the budget stays). */
  lift(): void;
  /** Replaces the budget from now on. */
  setBudget(budget: ForgeBudget): void;
  close(): Promise<void>;
}

type Kind = 'advertisement' | 'uploadPack' | 'push' | 'other';

interface RepoState {
  counts: ForgeCounts;
  readTimes: number[];
  pushTimes: number[];
}

/** Starts the forge on 127.0.0.1 on a free port. */
export async function startForge(opts: ForgeOptions): Promise<Forge> {
  const now = opts.now ?? (() => Date.now());
  let budget: ForgeBudget = opts.budget ?? {};
  let limits: (ForgeLimit & { until: number })[] = [];
  const repos = new Map<string, RepoState>();
  const stateOf = (repo: string): RepoState => {
    let state = repos.get(repo);
    if (state === undefined)
      repos.set(repo, (state = { counts: zeroCounts(), readTimes: [], pushTimes: [] }));
    return state;
  };
  const server = createServer((req, res) => {
    const { repo, kind } = classify(req);
    const state = stateOf(repo);
    const at = now();
    const limit = limits.find((l) => l.until > at && (l.repo === undefined || l.repo === repo));
    if (limit !== undefined && kind !== 'other') {
      opts.onRequest?.({ repo, kind: (limit.status ?? 429) === 429 ? 'limited' : 'forbidden', at });
      return refuseForLimit(req, res, state, limit, at);
    }
    const over = overBudget(state, kind, budget, at);
    if (over !== undefined) {
      opts.onRequest?.({ repo, kind: 'limited', at });
      return refuse(req, res, state, 429, over, at);
    }
    count(state, kind, at);
    if (kind !== 'other') {
      const event: ForgeEvent = { repo, kind: kind === 'push' ? 'push' : 'read', at };
      opts.onRequest?.(event);
      const method = req.method ?? '';
      if (opts.onAnswered) res.on('finish', () => opts.onAnswered?.({ ...event, ms: now() - at, method }));
    }
    const background = opts.background;
    const nice = background && hasToken(req.headers.authorization, background.token) ? background.nice : 0;
    runBackend(opts.root, req, res, undefined, false, nice);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (repo) => `http://127.0.0.1:${port}/${repo.replace(/^\//, '')}`,
    counts: (repo) => ({ ...(repos.get(repo.replace(/^\//, ''))?.counts ?? zeroCounts()) }),
    allCounts: () => new Map([...repos].map(([repo, s]) => [repo, { ...s.counts }])),
    limitFor: (limit) => void limits.push({ ...limit, until: now() + limit.forMs }),
    lift: () => void (limits = []),
    setBudget: (b) => void (budget = b),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The repository (path under the root) and the kind of a smart-HTTP request. */
function classify(req: IncomingMessage): { repo: string; kind: Kind } {
  const { pathname, searchParams } = new URL(req.url ?? '/', 'http://localhost');
  const path = decodeURIComponent(pathname).replace(/^\//, '');
  const match = /^(.*?)\/(info\/refs|git-upload-pack|git-receive-pack)$/.exec(path);
  if (match === null) return { repo: path, kind: 'other' };
  const repo = match[1] ?? '';
  if (match[2] === 'info/refs')
    return { repo, kind: searchParams.get('service') === null ? 'other' : 'advertisement' };
  if (req.method !== 'POST') return { repo, kind: 'other' };
  return { repo, kind: match[2] === 'git-receive-pack' ? 'push' : 'uploadPack' };
}

/** When the request would exceed its budget: the limit, and when the oldest counted request leaves its window. */
function overBudget(
  state: RepoState,
  kind: Kind,
  budget: ForgeBudget,
  at: number,
): { limit: number; resetAt: number } | undefined {
  if (kind === 'push' && budget.pushesPerMinute !== undefined)
    return over(state.pushTimes, budget.pushesPerMinute, 60_000, at);
  if ((kind === 'advertisement' || kind === 'uploadPack') && budget.readsPerSecond !== undefined) {
    const windowMs = budget.readWindowMs ?? 1000;
    return over(state.readTimes, Math.floor((budget.readsPerSecond * windowMs) / 1000), windowMs, at);
  }
  return undefined;
}

function over(
  times: number[],
  limit: number,
  windowMs: number,
  at: number,
): { limit: number; resetAt: number } | undefined {
  while (times.length > 0 && times[0]! <= at - windowMs) times.shift();
  if (times.length < limit) return undefined;
  return { limit, resetAt: (times[0] ?? at) + windowMs };
}

function count(state: RepoState, kind: Kind, at: number): void {
  const c = state.counts;
  if (kind === 'advertisement') c.advertisements++;
  else if (kind === 'uploadPack') c.uploadPacks++;
  else if (kind === 'push') c.pushes++;
  if (kind === 'advertisement' || kind === 'uploadPack') {
    c.reads++;
    state.readTimes.push(at);
  } else if (kind === 'push') state.pushTimes.push(at);
}

function refuseForLimit(
  req: IncomingMessage,
  res: ServerResponse,
  state: RepoState,
  limit: ForgeLimit & { until: number },
  at: number,
): void {
  const status = limit.status ?? 429;
  const retryAfter = limit.retryAfterSeconds === undefined ? 60 : limit.retryAfterSeconds;
  const resetAt = Math.min(limit.until, retryAfter === null ? limit.until : at + retryAfter * 1000);
  refuse(req, res, state, status, { limit: 0, resetAt }, at, retryAfter !== null);
}

/** Answers 429 (or 403, GitHub's secondary limit) with the rate-limit headers, leaving the body unread. */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  state: RepoState,
  status: 429 | 403,
  over: { limit: number; resetAt: number },
  at: number,
  withRetryAfter = true,
): void {
  if (status === 429) state.counts.limited++;
  else state.counts.forbidden++;
  const headers: Record<string, string> = {
    'Content-Type': 'text/plain',
    'X-RateLimit-Limit': String(over.limit),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(Math.ceil(over.resetAt / 1000)),
    // The body may still be coming (a chunked push): the connection is not reused.
    Connection: 'close',
  };
  if (withRetryAfter) headers['Retry-After'] = String(Math.max(1, Math.ceil((over.resetAt - at) / 1000)));
  res.writeHead(status, status === 429 ? 'Too Many Requests' : 'Forbidden', headers);
  res.end(
    status === 429
      ? 'Too many requests to this repository; try again later.\n'
      : 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.\n',
  );
  req.resume();
}

function zeroCounts(): ForgeCounts {
  return { advertisements: 0, uploadPacks: 0, reads: 0, pushes: 0, limited: 0, forbidden: 0 };
}
