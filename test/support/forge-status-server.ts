// A local HTTP server speaking the commit-status API of GitHub, Gitea or GitLab, as their API
// references document it, for tests of the hub's commit statuses: it checks the auth header,
// keeps the statuses posted (latest per commit and context), answers the read-back endpoints,
// records every request, and can be told to misbehave (hang, answer 500, answer 429 with
// Retry-After). A post whose state GitLab would refuse to repeat gets GitLab's 400.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ForgeKind = 'github' | 'gitea' | 'gitlab';

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** A status as the forge keeps it, in the forge's own words. */
export interface KeptStatus {
  state: string;
  context: string;
  description: string;
  target_url?: string;
}

export type Misbehaviour = 'none' | 'hang' | 'fail500' | 'limit429';

export interface ForgeStatusServer {
  /** The API base URL (`http://127.0.0.1:PORT/api/v3` and the like). */
  apiUrl: string;
  requests: SeenRequest[];
  /** Every status posted on a commit, oldest first. */
  posted(sha: string): KeptStatus[];
  /** Sets how the next requests are answered; back to `none`, the requests left hanging are cut. */
  misbehave(how: Misbehaviour, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

const prefixes: Record<ForgeKind, string> = { github: '/api/v3', gitea: '/api/v1', gitlab: '/api/v4' };

/** Starts a server for the forge with the one token it accepts and the repository it holds. */
export async function startForgeStatusServer(opts: {
  kind: ForgeKind;
  token: string;
  repository: string;
}): Promise<ForgeStatusServer> {
  const requests: SeenRequest[] = [];
  const statuses = new Map<string, KeptStatus[]>();
  const hanging: ServerResponse[] = [];
  let how: Misbehaviour = 'none';
  let retryAfter = 1;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const seen: SeenRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as unknown) : undefined,
      };
      requests.push(seen);
      if (how === 'hang') return void hanging.push(res);
      if (how === 'fail500') return send(res, 500, { message: 'internal error' });
      if (how === 'limit429')
        return send(res, 429, { message: 'API rate limit exceeded' }, { 'retry-after': String(retryAfter) });
      answer(opts, statuses, seen, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}${prefixes[opts.kind]}`,
    requests,
    posted: (sha) => statuses.get(sha) ?? [],
    misbehave: (next, seconds = 1) => {
      how = next;
      retryAfter = seconds;
      if (next === 'none') for (const res of hanging.splice(0)) res.destroy();
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(
  opts: { kind: ForgeKind; token: string; repository: string },
  statuses: Map<string, KeptStatus[]>,
  req: SeenRequest,
  res: ServerResponse,
): void {
  if (!authorized(opts, req.headers)) return send(res, 401, { message: 'Bad credentials' });
  const path = req.path.slice(prefixes[opts.kind].length);
  const route =
    opts.kind === 'gitlab' ? gitlabRoute(opts.repository, path) : githubRoute(opts.repository, path);
  if (!route) return send(res, 404, { message: 'Not Found' });
  const list = statuses.get(route.sha) ?? [];
  if (req.method === 'POST' && route.type === 'post') {
    const body = req.body as Record<string, string>;
    const context = (opts.kind === 'gitlab' ? body.name : body.context) ?? 'default';
    const state = body.state ?? '';
    if (!validStates[opts.kind].includes(state))
      return send(res, 422, { message: `state ${state} is invalid` });
    const last = [...list].reverse().find((s) => s.context === context);
    if (opts.kind === 'gitlab' && last?.state === state)
      return send(res, 400, { message: `Cannot transition status via :run from :${state}` });
    const kept: KeptStatus = {
      state,
      context,
      description: body.description ?? '',
      ...(body.target_url ? { target_url: body.target_url } : {}),
    };
    statuses.set(route.sha, [...list, kept]);
    return send(res, 201, opts.kind === 'gitlab' ? { status: state, name: context } : { state, context });
  }
  if (req.method === 'GET' && route.type === 'read') return send(res, 200, readBack(opts.kind, list, path));
  send(res, 405, { message: 'Method Not Allowed' });
}

const validStates: Record<ForgeKind, string[]> = {
  github: ['pending', 'success', 'failure', 'error'],
  gitea: ['pending', 'success', 'failure', 'error', 'warning'],
  gitlab: ['pending', 'running', 'success', 'failed', 'canceled'],
};

function authorized(opts: { kind: ForgeKind; token: string }, headers: IncomingMessage['headers']): boolean {
  if (opts.kind === 'gitlab') return headers['private-token'] === opts.token;
  const auth = headers.authorization;
  return opts.kind === 'github'
    ? auth === `Bearer ${opts.token}` || auth === `token ${opts.token}`
    : auth === `token ${opts.token}`;
}

function githubRoute(repository: string, path: string): { type: 'post' | 'read'; sha: string } | undefined {
  const post = new RegExp(`^/repos/${repository}/statuses/([0-9a-f]{40})$`).exec(path);
  if (post) return { type: 'post', sha: post[1]! };
  const read = new RegExp(`^/repos/${repository}/commits/([0-9a-f]{40})/status$`).exec(path);
  return read ? { type: 'read', sha: read[1]! } : undefined;
}

function gitlabRoute(repository: string, path: string): { type: 'post' | 'read'; sha: string } | undefined {
  const id = encodeURIComponent(repository);
  const post = new RegExp(`^/projects/${id}/statuses/([0-9a-f]{40})$`).exec(path);
  if (post) return { type: 'post', sha: post[1]! };
  const read = new RegExp(`^/projects/${id}/repository/commits/([0-9a-f]{40})/statuses(\\?.*)?$`).exec(path);
  return read ? { type: 'read', sha: read[1]! } : undefined;
}

// The latest status per context, newest first: GitHub's combined status (`state`), Gitea's
// (`status`), GitLab's list filtered by `name` (`status`).
function readBack(kind: ForgeKind, list: KeptStatus[], path: string): unknown {
  const latest = new Map<string, KeptStatus>();
  for (const s of list) latest.set(s.context, s);
  const newest = [...latest.values()].reverse();
  if (kind === 'gitlab') {
    const name = new URLSearchParams(path.split('?')[1] ?? '').get('name');
    return newest
      .filter((s) => name === null || s.context === name)
      .map((s) => ({ status: s.state, name: s.context, description: s.description }));
  }
  const field = kind === 'github' ? 'state' : 'status';
  return {
    state: newest[0]?.state ?? 'pending',
    statuses: newest.map((s) => ({ [field]: s.state, context: s.context, description: s.description })),
  };
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
