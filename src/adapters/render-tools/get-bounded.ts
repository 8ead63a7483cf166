// One GET of a chart repository's file (its index.yaml, a packaged chart) with the limits of
// docs/sources.md#charts-from-a-chart-repository: a deadline for the whole exchange (the render
// timeout), a cap on the bytes read (counted as they arrive: a server that sends without end is
// cut off at the cap), HTTPS (plain HTTP to a loopback address only) on every hop, at most five
// redirects, and credentials sent only to the URLs their key covers, looked up again on every
// hop, so a redirect to another host never carries them. Words never quote a header or a value.
import { credentialForUrl, type ChartCredential, type CredentialEntries } from './chart-credentials.js';

/** What a GET read: the body and the URL it came from (after redirects), or why it failed. */
export type GotFile = { ok: true; body: Buffer; url: string } | { ok: false; message: string };

const MAX_REDIRECTS = 5;
const LOOPBACK_HTTP = /^http:\/\/(127\.[0-9.]+|localhost|\[::1\])(:[0-9]+)?(\/|$)/;

/** Returns whether a URL may be read: HTTPS, or plain HTTP to a loopback address. */
export function isReadableUrl(url: string): boolean {
  return url.startsWith('https://') || LOOPBACK_HTTP.test(url);
}

/** Returns the body of a GET, or why there is none; never throws. */
export async function getBounded(opts: {
  url: string;
  /** Names the file in messages (`index.yaml`, `web-1.4.2.tgz`). */
  what: string;
  maxBytes: number;
  /** Ends the whole exchange (the render deadline shared by the chart's requests). */
  deadline: { signal: AbortSignal; timeoutMs: number };
  credentials: CredentialEntries | undefined;
}): Promise<GotFile> {
  let url = opts.url;
  const fail = (why: string): GotFile => ({ ok: false, message: `${opts.what} from ${url}: ${why}` });
  try {
    for (let hop = 0; ; hop++) {
      if (!isReadableUrl(url)) return fail('not read: https, or plain http to a loopback address only');
      const credential = opts.credentials && credentialForUrl(opts.credentials, url);
      const res = await fetch(url, {
        headers: { 'user-agent': 'gitfleet', ...(credential ? authorization(credential) : {}) },
        redirect: 'manual',
        signal: opts.deadline.signal,
      });
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location !== null) {
        await res.body?.cancel();
        if (hop === MAX_REDIRECTS) return fail(`more than ${MAX_REDIRECTS} redirects`);
        url = new URL(location, url).toString();
        continue;
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        return fail(statusWords(res.status, credential !== undefined));
      }
      const declared = Number(res.headers.get('content-length') ?? NaN);
      if (declared > opts.maxBytes) {
        await res.body?.cancel();
        return fail(`${declared} bytes, more than the ${opts.maxBytes} read`);
      }
      const body = await readCapped(res, opts.maxBytes);
      return body === undefined ? fail(`more than the ${opts.maxBytes} bytes read`) : { ok: true, body, url };
    }
  } catch (error) {
    if (opts.deadline.signal.aborted)
      return fail(`no whole answer within ${opts.deadline.timeoutMs / 1000} s (--render-timeout): stopped`);
    return fail(`the request failed: ${errorCode(error)}`);
  }
}

function authorization(credential: ChartCredential): Record<string, string> {
  const value =
    'token' in credential
      ? `Bearer ${credential.token}`
      : `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString('base64')}`;
  return { authorization: value };
}

function statusWords(status: number, sentCredentials: boolean): string {
  if (status === 401 || status === 403)
    return `answered ${status}: ${sentCredentials ? 'the credentials of --chart-credentials were refused' : 'it needs credentials, and --chart-credentials has none for it'}`;
  if (status === 404) return 'answered 404: not found';
  return `answered ${status}`;
}

// Reads the body, stopping (and dropping the connection) past the cap; undefined when past it.
async function readCapped(res: Response, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  if (reader === undefined) return Buffer.alloc(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(Buffer.from(value));
  }
}

// The code of a network error (ECONNREFUSED, ECONNRESET, …), never its message.
function errorCode(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const raw = cause?.code ?? (error as { code?: unknown } | undefined)?.code;
  const code = typeof raw === 'string' && /^[A-Z_0-9]+$/.test(raw) ? raw : 'network error';
  // undici ends a body the server cut off with "terminated".
  return error instanceof Error && error.message === 'terminated'
    ? `the connection closed before the whole answer (${code})`
    : code;
}
