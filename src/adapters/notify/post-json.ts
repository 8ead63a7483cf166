// One POST of a notification body (docs/notifications.md#delivery): a deadline for the whole
// exchange (connect, headers and body), no redirect followed (a 3xx is refused: a receiver that
// moves may hand the payload and its signature to another host), and an outcome in words that
// never hold the URL, since the path of a Slack or Teams URL is its credential.
import type { DeliveryOutcome } from '../../core/notify/notification-receiver.js';

export interface PostJsonOptions {
  url: string;
  body: string;
  headers?: Record<string, string>;
  /** The deadline of the whole exchange. */
  timeoutMs: number;
  /** Stops the request early (the hub stopping). */
  signal: AbortSignal;
}

/** Posts the body; returns delivered on 2xx, failed with a reason otherwise (never throws). */
export async function postJson(opts: PostJsonOptions): Promise<DeliveryOutcome> {
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = AbortSignal.any([deadline, opts.signal]);
  try {
    const res = await fetch(opts.url, {
      method: 'POST',
      body: opts.body,
      headers: { 'content-type': 'application/json', 'user-agent': 'gitfleet-notifier', ...opts.headers },
      redirect: 'manual',
      signal,
    });
    // The body is read (bounded by the deadline) and dropped: it may echo what was sent.
    await res.arrayBuffer().catch(() => undefined);
    return outcomeOf(res.status, res.headers.get('retry-after'));
  } catch (error) {
    if (deadline.aborted) return { type: 'failed', reason: `no answer within ${opts.timeoutMs} ms` };
    if (opts.signal.aborted) return { type: 'failed', reason: 'stopped' };
    return { type: 'failed', reason: `the request failed: ${errorCode(error)}` };
  }
}

function outcomeOf(status: number, retryAfter: string | null): DeliveryOutcome {
  if (status >= 200 && status < 300) return { type: 'delivered', status };
  if (status >= 300 && status < 400)
    return {
      type: 'failed',
      reason: `answered ${status}, a redirect: refused, gitfleet never follows one`,
      terminal: true,
    };
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  const retry = seconds !== undefined ? { retryAfterMs: Math.min(seconds, 3600) * 1000 } : {};
  const terminal = status >= 400 && status < 500 && status !== 408 && status !== 429;
  return { type: 'failed', reason: `answered ${status}`, ...retry, ...(terminal ? { terminal } : {}) };
}

// The code of a network error (ECONNREFUSED, ENOTFOUND, …): never its message, which may quote the URL.
function errorCode(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = cause?.code ?? (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[A-Z_0-9]+$/.test(code) ? code : 'network error';
}
