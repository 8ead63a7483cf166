// A real Git smart-HTTP server for tests: a loopback HTTP server that hands every request to
// git's own `git http-backend` as a CGI program, so clients talk to the same code a
// production git host runs. Request and response bodies stream through; a gzip'd request
// body is passed as is with HTTP_CONTENT_ENCODING set, and http-backend inflates it.
//
// Optional token check, as hosting services do it: with `token` set, a request must carry
// `Authorization: Bearer <token>` or Basic credentials whose password is the token;
// otherwise 401 with a Basic challenge, so git and isomorphic-git ask for credentials.
import { spawn } from 'node:child_process';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseCgiHead } from './parse-cgi-head.js';

export interface GitServerOptions {
  /** Directory holding the served repositories (GIT_PROJECT_ROOT). */
  root: string;
  /** When set, every request must present this token. */
  token?: string;
  /**
   * Speak git protocol v0 only, as a server that does not pass the client's Git-Protocol
   * header through to git (GIT_PROTOCOL) does.
   */
  v0Only?: boolean;
}

/** One request the server saw, for tests that look at what clients sent. */
export interface SeenRequest {
  method: string;
  path: string;
  /** The query string, `?` included, or ''. */
  query: string;
  authorized: boolean;
  authorization: string | undefined;
  /** The request body's Content-Encoding (git gzips large fetch requests). */
  contentEncoding: string | undefined;
  /** True when the body came chunked, without a Content-Length (git's large pushes). */
  chunked: boolean;
  /** When it arrived (Date.now). */
  at: number;
  /** How long the server took to answer it, in ms (set once the answer is sent). */
  ms?: number;
}

/** A running server. */
export interface GitServer {
  /** The clone URL of a repository under the root, e.g. url('fleet.git'). */
  url(repo: string): string;
  /** Every request seen so far, oldest first. */
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 on a free port and returns its URLs and a close function. */
export async function startGitServer(opts: GitServerOptions): Promise<GitServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const authorized = opts.token === undefined || hasToken(req.headers.authorization, opts.token);
    const { pathname: path, search: query } = new URL(req.url ?? '/', 'http://localhost');
    const seen: SeenRequest = {
      method: req.method ?? '',
      path,
      query,
      authorized,
      authorization: req.headers.authorization,
      contentEncoding: req.headers['content-encoding'],
      chunked: req.headers['transfer-encoding'] === 'chunked',
      at: Date.now(),
    };
    requests.push(seen);
    res.on('finish', () => (seen.ms = Date.now() - seen.at));
    if (!authorized) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="gitfleet-test"', 'Content-Type': 'text/plain' });
      res.end('authentication required\n');
      return;
    }
    runBackend(
      opts.root,
      req,
      res,
      opts.token === undefined ? undefined : 'token-user',
      opts.v0Only === true,
    );
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (repo) => `http://127.0.0.1:${port}/${repo.replace(/^\//, '')}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** True when the Authorization header carries the token as a bearer token or a Basic password. */
export function hasToken(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const [scheme = '', value = ''] = header.split(/\s+/, 2);
  let presented: string;
  if (scheme.toLowerCase() === 'bearer') presented = value;
  else if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    presented = decoded.slice(decoded.indexOf(':') + 1);
  } else return false;
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

/**
 * Runs one request through `git http-backend` and streams its answer back (the forge emulator
 * reuses it); `nice` above 0 runs the backend (and the git processes it starts) at that niceness.
 */
export function runBackend(
  root: string,
  req: IncomingMessage,
  res: ServerResponse,
  user: string | undefined,
  v0Only: boolean,
  nice = 0,
): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.replace(/^\?/, ''),
    REQUEST_METHOD: req.method ?? 'GET',
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    ...(user === undefined ? {} : { REMOTE_USER: user }),
    ...header(req, 'content-type', 'CONTENT_TYPE'),
    ...header(req, 'content-length', 'CONTENT_LENGTH'),
    ...header(req, 'content-encoding', 'HTTP_CONTENT_ENCODING'),
    ...(v0Only ? {} : header(req, 'git-protocol', 'GIT_PROTOCOL')),
  };
  const [command, args] =
    nice > 0 ? ['nice', ['-n', String(nice), 'git', 'http-backend']] : ['git', ['http-backend']];
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  req.pipe(child.stdin);
  child.stdin.on('error', () => undefined); // the backend may answer before reading everything
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  streamCgiOutput(child.stdout, res);
  // A client gone before the answer ended (a test's server closed, a request aborted) leaves the
  // backend blocked on its paused output or on a body that never ends: it is killed, so no
  // http-backend outlives its request (one did, and kept the test process alive for ever).
  res.on('close', () => {
    if (!res.writableFinished && child.exitCode === null) child.kill('SIGKILL');
  });
  child.on('close', (code) => {
    if (!res.headersSent) {
      res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`git http-backend exited with ${code}: ${stderr}`);
    } else if (!res.writableEnded) res.end();
  });
}

function header(req: IncomingMessage, name: string, cgiName: string): Record<string, string> {
  const value = req.headers[name];
  return typeof value === 'string' ? { [cgiName]: value } : {};
}

/** Reads the CGI header block, sends it as the HTTP head, then pipes the body through. */
function streamCgiOutput(stdout: NodeJS.ReadableStream, res: ServerResponse): void {
  let buffered = Buffer.alloc(0);
  let headDone = false;
  const send = (chunk: Buffer): void => {
    // Backpressure: a slow client pauses the backend instead of filling memory.
    if (!res.write(chunk)) {
      stdout.pause();
      res.once('drain', () => stdout.resume());
    }
  };
  stdout.on('data', (chunk: Buffer) => {
    if (headDone) {
      send(chunk);
      return;
    }
    buffered = Buffer.concat([buffered, chunk]);
    const head = parseCgiHead(buffered);
    if (head === null) return;
    headDone = true;
    res.writeHead(head.status, head.statusText, head.headers.flat());
    if (head.rest.length > 0) send(head.rest);
  });
  stdout.on('end', () => {
    if (headDone) res.end();
  });
}
