// One request to a forge's REST API for commit statuses: JSON in and out, the remote adapter's
// connect and silence timeouts plus an overall deadline (a forge that accepts the connection and
// never answers fails as ForgeUnreachable, it never holds the worker), the API's rate-limit gate
// (a 429, or a 403 saying so, closes it: RateLimited, waited out until Retry-After or
// X-RateLimit-Reset), an answer read up to 1 MiB, and messages that name the endpoint and
// quote the forge's own `message`, with every secret masked.
import { openHttpRequest } from '../remote/open-http-request.js';
import type { RateLimitGate } from '../remote/rate-limit-gate.js';
import { RemoteError } from '../remote/remote-error.js';
import { redactSecrets } from '../remote/redact-secrets.js';
import { ForgeStatusError } from './forge-status-error.js';

/** The limits of one request. */
export interface ForgeTimeouts {
  connectMs: number;
  /** Longest silence once connected. */
  idleMs: number;
  /** Longest the whole request may take. */
  deadlineMs: number;
}

/** Returns the defaults: 10 s to connect, 30 s of silence, 60 s in all. */
export function defaultForgeTimeouts(): ForgeTimeouts {
  return { connectMs: 10_000, idleMs: 30_000, deadlineMs: 60_000 };
}

export interface ForgeRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  timeouts: ForgeTimeouts;
  gate?: RateLimitGate;
  signal?: AbortSignal;
  /** Masked in every message (the token). */
  secrets: readonly string[];
}

/** An answer below 400 (the others throw). */
export interface ForgeAnswer {
  status: number;
  /** The parsed JSON body, or undefined for an empty one. */
  json: unknown;
}

const maxAnswerBytes = 1 << 20;

/** Sends the request; resolves with a 2xx/3xx answer, rejects with ForgeStatusError (or RateLimited) otherwise. */
export async function forgeRequest(req: ForgeRequest): Promise<ForgeAnswer> {
  const endpoint = req.url.replace(/\?.*$/, '');
  const controller = new AbortController();
  const stop = (): void => controller.abort(req.signal?.reason);
  req.signal?.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(
    () => controller.abort(new RemoteError('Unreachable', `no answer within ${req.timeouts.deadlineMs} ms`)),
    req.timeouts.deadlineMs,
  );
  try {
    const { status, text } = await exchange(req, controller.signal);
    if (status >= 400) throw refusal(endpoint, status, text, req.secrets);
    return { status, json: parseJson(endpoint, text, req.secrets) };
  } catch (error) {
    if (error instanceof ForgeStatusError || (error instanceof RemoteError && error.code === 'RateLimited'))
      throw error;
    const why = redactSecrets((error as Error).message, req.secrets);
    throw new ForgeStatusError('ForgeUnreachable', `${endpoint}: ${req.method} failed: ${why}`);
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', stop);
  }
}

async function exchange(req: ForgeRequest, signal: AbortSignal): Promise<{ status: number; text: string }> {
  const body = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
  const open = openHttpRequest({
    url: req.url,
    method: req.method,
    headers: {
      accept: 'application/json',
      'user-agent': 'gitfleet',
      ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
      ...req.headers,
    },
    timeouts: { connectMs: req.timeouts.connectMs, idleMs: req.timeouts.idleMs },
    signal,
    gate: req.gate,
  });
  open.request.end(body);
  const response = await open.response;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxAnswerBytes) {
      response.destroy();
      throw new Error(`answer larger than ${maxAnswerBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return { status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') };
}

function refusal(
  endpoint: string,
  status: number,
  text: string,
  secrets: readonly string[],
): ForgeStatusError {
  const said = forgeMessage(text);
  const message = redactSecrets(
    `${endpoint}: the forge answered ${status}${said ? `: ${said}` : ''}`,
    secrets,
  );
  return new ForgeStatusError(status >= 500 ? 'ForgeUnreachable' : 'ForgeRefused', message, status);
}

/** The forge's own explanation: GitHub's, Gitea's and GitLab's `message` (GitLab's may be an object). */
function forgeMessage(text: string): string | undefined {
  try {
    const json = JSON.parse(text) as unknown;
    if (typeof json === 'object' && json !== null && 'message' in json) {
      const m = (json as { message: unknown }).message;
      return (typeof m === 'string' ? m : JSON.stringify(m)).slice(0, 300);
    }
  } catch {
    // not JSON: the status says enough
  }
  return text.trim() === '' ? undefined : text.trim().slice(0, 200);
}

function parseJson(endpoint: string, text: string, secrets: readonly string[]): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ForgeStatusError(
      'ForgeBadAnswer',
      redactSecrets(`${endpoint}: the answer is not JSON: ${text.slice(0, 100)}`, secrets),
    );
  }
}
