// The agent's side of the doorbell (adapters/http/notify-server.ts): one wait or one beacon,
// with a deadline on every request, its answer as data. The token goes only into the
// Authorization header, never into an error message.
import type { PushSlot } from '../../core/budget/plan-pacing.js';

/** What one request to the doorbell came back with. */
export type DoorbellAnswer =
  | { type: 'moved'; head: string | null }
  | { type: 'unchanged' }
  | { type: 'unauthorized' }
  | { type: 'unavailable'; status?: number; retryAfterMs?: number; message: string };

/**
 * The hub's pacing of this agent (core/budget/plan-pacing.ts): its push slot, when the hub paces
 * pushes, and how long a starting agent waits before its first fetch.
 */
export type PacingAnswer =
  | { type: 'pacing'; pushSlot: PushSlot | null; startInMs: number }
  | Exclude<DoorbellAnswer, { type: 'moved' } | { type: 'unchanged' }>;

export interface DoorbellRequest {
  /** The doorbell's base URL (`agent --notify-url`), e.g. https://hub.example/doorbell. */
  url: string;
  cluster: string;
  token: string;
  /** Aborts the request (the agent stops). */
  signal?: AbortSignal;
  /** The request's deadline: connect, hold and answer together. */
  timeoutMs: number;
}

/** Waits for the cluster's branch to move past `after` (null: the agent has none); returns the answer. */
export function waitForHead(req: DoorbellRequest, after: string | null): Promise<DoorbellAnswer> {
  const url = `${endpoint(req)}/wait?after=${encodeURIComponent(after ?? '')}`;
  return ask(req, url, 'GET');
}

/** Tells the hub the agent is alive; returns the answer (`unchanged` when accepted). */
export function sendBeacon(req: DoorbellRequest): Promise<DoorbellAnswer> {
  return ask(req, `${endpoint(req)}/beacon`, 'POST');
}

/**
 * Asks the hub for this agent's pacing: the push slot of its status repository and, when
 * `starting`, how long to wait before its first fetch (the hub paces starts as it paces rings).
 */
export async function askPacing(req: DoorbellRequest, starting: boolean): Promise<PacingAnswer> {
  const url = `${endpoint(req)}/pacing${starting ? '?start=1' : ''}`;
  const answer = await ask(req, url, 'GET', pacingOf);
  return answer.type === 'moved' || answer.type === 'unchanged'
    ? { type: 'unavailable', status: 204, message: 'answered with no pacing' }
    : answer;
}

function endpoint(req: DoorbellRequest): string {
  return `${req.url.replace(/\/+$/, '')}/v1/clusters/${encodeURIComponent(req.cluster)}`;
}

async function ask(req: DoorbellRequest, url: string, method: 'GET' | 'POST'): Promise<DoorbellAnswer>;
async function ask(
  req: DoorbellRequest,
  url: string,
  method: 'GET',
  parse: (text: string) => PacingAnswer,
): Promise<DoorbellAnswer | PacingAnswer>;
async function ask(
  req: DoorbellRequest,
  url: string,
  method: 'GET' | 'POST',
  parse: (text: string) => DoorbellAnswer | PacingAnswer = headOf,
): Promise<DoorbellAnswer | PacingAnswer> {
  const deadline = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
  let response: Response;
  const send = () => fetch(url, { method, headers: { Authorization: `Bearer ${req.token}` }, signal });
  try {
    // A kept-alive socket the hub closed as the request went out fails at once: that one is
    // tried again on a new socket (the hub never saw it), not taken for the hub being down.
    response = await send().catch((error: unknown) => {
      if (signal.aborted || !isStaleSocket(error)) throw error;
      return send();
    });
  } catch (error) {
    return { type: 'unavailable', message: describe(error, deadline, req.timeoutMs) };
  }
  try {
    if (response.status === 204) return { type: 'unchanged' };
    if (response.status === 401) return { type: 'unauthorized' };
    if (response.status === 200 && method === 'GET') return parse(await response.text());
    const retry = Number(response.headers.get('retry-after'));
    return {
      type: 'unavailable',
      status: response.status,
      ...(Number.isFinite(retry) && retry > 0 ? { retryAfterMs: retry * 1000 } : {}),
      message: `answered ${response.status}`,
    };
  } catch (error) {
    return { type: 'unavailable', message: describe(error, deadline, req.timeoutMs) };
  } finally {
    await response.body?.cancel().catch(() => undefined);
  }
}

function headOf(text: string): DoorbellAnswer {
  try {
    const head = (JSON.parse(text) as { head?: unknown }).head;
    if (head === null || (typeof head === 'string' && /^[0-9a-f]{40,64}$/.test(head)))
      return { type: 'moved', head };
  } catch {
    // Not JSON: said below.
  }
  return { type: 'unavailable', status: 200, message: 'answered 200 with no head in it' };
}

function pacingOf(text: string): PacingAnswer {
  try {
    const body = JSON.parse(text) as { pushSlot?: unknown; startInMs?: unknown };
    const whole = (n: unknown, min: number): n is number => Number.isSafeInteger(n) && (n as number) >= min;
    const startInMs = whole(body.startInMs, 0) ? body.startInMs : 0;
    if (body.pushSlot === null) return { type: 'pacing', pushSlot: null, startInMs };
    const { periodMs, offsetMs, widthMs } = (body.pushSlot ?? {}) as Record<string, unknown>;
    if (whole(periodMs, 1) && whole(offsetMs, 0) && whole(widthMs, 1))
      return { type: 'pacing', pushSlot: { periodMs, offsetMs, widthMs }, startInMs };
  } catch {
    // Not JSON: said below.
  }
  return { type: 'unavailable', status: 200, message: 'answered 200 with no pacing in it' };
}

function isStaleSocket(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
}

function describe(error: unknown, deadline: AbortSignal, timeoutMs: number): string {
  if (deadline.aborted) return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
