// Turns what isomorphic-git, Node's HTTP client or the server threw into one RemoteError,
// with a message that names the subject, says what to do, and carries no credentials.
import { RemoteError, type RemoteErrorCode } from './remote-error.js';
import { redactSecrets } from './redact-secrets.js';

export interface ErrorContext {
  /** What was being done, e.g. `fetch` or `push of refs/heads/gitfleet/clusters/a`. */
  action: string;
  /** The remote's URL without credentials. */
  url: string;
  ref?: string;
  /** Secrets to mask should a message quote them. */
  secrets: readonly (string | undefined)[];
}

interface LibraryError {
  code?: unknown;
  message?: unknown;
  data?: { statusCode?: unknown; statusMessage?: unknown; reason?: unknown; result?: unknown };
}

const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** Returns the error as a RemoteError (unchanged if it already is one) with credentials masked. */
export function toRemoteError(error: unknown, ctx: ErrorContext): RemoteError {
  if (error instanceof RemoteError) return error;
  const e = (typeof error === 'object' && error !== null ? error : {}) as LibraryError;
  return build(classify(e), ctx);
}

/** Returns the error for an HTTP answer that is not 200, from its status. */
export function httpStatusError(status: number, statusText: string, ctx: ErrorContext): RemoteError {
  return build(classifyHttp(status, statusText), ctx);
}

/** Returns the error for receive-pack's per-ref answers (`ng <ref> <reason>`) and the remote's own messages. */
export function pushReportError(
  failures: readonly string[],
  ctx: ErrorContext,
  remoteMessages: readonly string[] = [],
): RemoteError {
  const [code, detail] = classifyFailures(failures);
  const said = remoteMessages.length === 0 ? '' : `; the remote said: ${remoteMessages.join(' | ')}`;
  return build([code, `${detail}${said}`], ctx);
}

function build([code, detail]: [RemoteErrorCode, string], ctx: ErrorContext): RemoteError {
  const subject = ctx.ref === undefined ? ctx.url : `${ctx.ref}: ${ctx.url}`;
  const message = redactSecrets(`${subject}: ${ctx.action} failed: ${detail}`, ctx.secrets);
  return new RemoteError(code, message, ...(ctx.ref === undefined ? [] : [ctx.ref]));
}

function classify(e: LibraryError): [RemoteErrorCode, string] {
  const text = typeof e.message === 'string' ? e.message : String(e.message ?? e);
  if (e.code === 'HttpError')
    return classifyHttp(Number(e.data?.statusCode), String(e.data?.statusMessage ?? ''));
  if (e.code === 'PushRejectedError') {
    return ['PushRejected', `the remote ref moved (${String(e.data?.reason)}); re-read and retry`];
  }
  if (e.code === 'GitPushError') return classifyPushResult(e.data?.result);
  if (e.code === 'SmartHttpError') return ['NotFound', 'the URL does not serve git smart HTTP'];
  if (typeof e.code === 'string' && networkCodes.has(e.code)) return ['Unreachable', `${e.code}: ${text}`];
  if (e.code === 'ABORT_ERR') return ['Unreachable', text];
  return ['RemoteFailed', text];
}

function classifyHttp(status: number, statusText: string): [RemoteErrorCode, string] {
  const http = `HTTP ${status} ${statusText}`.trim();
  if (status === 401) {
    return ['AuthFailed', `${http}: credentials missing or refused (set GITFLEET_GIT_TOKEN or --token-file)`];
  }
  if (status === 403) return ['AuthFailed', `${http}: the token may not do this`];
  if (status === 404) return ['NotFound', `${http}: no repository at this URL`];
  if (status === 429)
    return ['RateLimited', `${http}: the server's rate limit; waiting before the next request`];
  if (status === 408 || status >= 500) return ['Unreachable', http];
  return ['RemoteFailed', http];
}

function classifyPushResult(result: unknown): [RemoteErrorCode, string] {
  const refs =
    (result as { refs?: Record<string, { ok?: boolean; error?: string }> } | undefined)?.refs ?? {};
  return classifyFailures(
    Object.entries(refs)
      .filter(([, r]) => r.ok !== true)
      .map(([ref, r]) => `${ref} ${r.error ?? 'rejected'}`),
  );
}

/** receive-pack's per-ref answers: a lost race reads as a lock or compare failure. */
function classifyFailures(errors: readonly string[]): [RemoteErrorCode, string] {
  const detail = errors.join('; ') || 'the remote refused the update';
  const lostRace = /lock|failed to update|stale|non-fast-forward|fetch first|already exists/i.test(detail);
  return lostRace ? ['PushRejected', `${detail}; re-read and retry`] : ['PushDeclined', detail];
}
