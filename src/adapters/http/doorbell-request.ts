// The agent's side of the doorbell (adapters/http/notify-server.ts): one wait or one beacon,
// with a deadline on every request, its answer as data. The token goes only into the
// Authorization header, never into an error message.

/** What one request to the doorbell came back with. */
export type DoorbellAnswer =
  | { type: 'moved'; head: string | null }
  | { type: 'unchanged' }
  | { type: 'unauthorized' }
  | { type: 'unavailable'; status?: number; retryAfterMs?: number; message: string };

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

function endpoint(req: DoorbellRequest): string {
  return `${req.url.replace(/\/+$/, '')}/v1/clusters/${encodeURIComponent(req.cluster)}`;
}

async function ask(req: DoorbellRequest, url: string, method: 'GET' | 'POST'): Promise<DoorbellAnswer> {
  const deadline = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
  let response: Response;
  try {
    response = await fetch(url, { method, headers: { Authorization: `Bearer ${req.token}` }, signal });
  } catch (error) {
    return { type: 'unavailable', message: describe(error, deadline, req.timeoutMs) };
  }
  try {
    if (response.status === 204) return { type: 'unchanged' };
    if (response.status === 401) return { type: 'unauthorized' };
    if (response.status === 200 && method === 'GET') return headOf(await response.text());
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

function describe(error: unknown, deadline: AbortSignal, timeoutMs: number): string {
  if (deadline.aborted) return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
