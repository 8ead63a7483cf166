// Verifies a push webhook from GitHub, Gitea or GitLab with the shared secret, and says what it
// is. The signature is checked before anything in the payload is looked at; the payload is
// then only a hint for the log: the hub acts on what it fetches, never on what a webhook says.
//
//   provider  recognised by           proof                                            push event
//   Gitea     X-Gitea-Event           X-Gitea-Signature: hex HMAC-SHA256(secret, body)  push
//   GitLab    X-Gitlab-Event          X-Gitlab-Token: the secret itself                 Push Hook
//   GitHub    X-GitHub-Event          X-Hub-Signature-256: sha256=<hex HMAC-SHA256>     push (ping: setup check)
//
// Gitea also sends GitHub's headers, so it is recognised first. All comparisons are
// constant-time over equal-length buffers (crypto.timingSafeEqual); a GitLab token is hashed
// first so its length leaks nothing either.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type WebhookProvider = 'github' | 'gitea' | 'gitlab';

/** What a request turned out to be. */
export type WebhookVerdict =
  /** A verified push: trigger a fetch. */
  | { type: 'push'; provider: WebhookProvider }
  /** A verified event that is not a push (a ping, an issue, …): nothing to do. */
  | { type: 'ignored'; provider: WebhookProvider; event: string }
  /** No signature or token at all (401). */
  | { type: 'unsigned' }
  /** A signature or token that does not match the secret (403). */
  | { type: 'forged'; provider: WebhookProvider };

export interface WebhookRequest {
  /** Header names in lower case, as Node gives them. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: Buffer;
  secret: string;
}

/** Returns what the request is, having checked its signature against the secret. */
export function verifyWebhook(req: WebhookRequest): WebhookVerdict {
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const gitea = header('x-gitea-event');
  if (gitea !== undefined)
    return judge('gitea', gitea, 'push', header('x-gitea-signature'), (s) => hmacMatches(req, s));
  const gitlab = header('x-gitlab-event');
  if (gitlab !== undefined)
    return judge('gitlab', gitlab, 'Push Hook', header('x-gitlab-token'), (t) => tokenMatches(req, t));
  const github = header('x-github-event');
  if (github !== undefined) {
    return judge(
      'github',
      github,
      'push',
      header('x-hub-signature-256'),
      (s) => s.startsWith('sha256=') && hmacMatches(req, s.slice(7)),
    );
  }
  return { type: 'unsigned' };
}

function judge(
  provider: WebhookProvider,
  event: string,
  pushEvent: string,
  proof: string | undefined,
  matches: (proof: string) => boolean,
): WebhookVerdict {
  if (proof === undefined || proof === '') return { type: 'unsigned' };
  if (!matches(proof)) return { type: 'forged', provider };
  return event === pushEvent ? { type: 'push', provider } : { type: 'ignored', provider, event };
}

function hmacMatches(req: WebhookRequest, hex: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  const expected = createHmac('sha256', req.secret).update(req.body).digest();
  return timingSafeEqual(Buffer.from(hex, 'hex'), expected);
}

function tokenMatches(req: WebhookRequest, token: string): boolean {
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(token), digest(req.secret));
}

/** Returns the `ref` a verified push payload claims (JSON, or GitHub's form-encoded `payload=`), if any. */
export function claimedRef(body: Buffer, contentType: string | undefined): string | undefined {
  try {
    let text = body.toString('utf8');
    if (contentType?.startsWith('application/x-www-form-urlencoded')) {
      text = new URLSearchParams(text).get('payload') ?? '';
    }
    const ref: unknown = (JSON.parse(text) as { ref?: unknown }).ref;
    // Printable ASCII only: the claim goes into a log line, and must not forge others.
    return typeof ref === 'string' && /^[\x21-\x7e]{1,255}$/.test(ref) ? ref : undefined;
  } catch {
    return undefined;
  }
}
