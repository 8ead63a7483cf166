// A remote's URL, split into the URL the hub uses (no credentials: it keys the cache, goes into
// the mirror's config and into messages) and the credentials someone embedded in it, which
// serve only as a fallback when no token is configured.
import { RemoteError } from './remote-error.js';
import { redactUrl } from './redact-secrets.js';

/** A remote URL without credentials, plus any credentials it carried. */
export interface RemoteUrl {
  url: string;
  username?: string;
  password?: string;
}

/** Returns the http(s) URL without user-info and the user-info decoded, or throws InvalidOption. */
export function parseRemoteUrl(raw: string): RemoteUrl {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new RemoteError('InvalidOption', `${redactUrl(raw)}: not a URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new RemoteError('InvalidOption', `${redactUrl(raw)}: only http(s) remotes are supported`);
  }
  const username = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  const url = parsed.toString().replace(/\/+$/, '');
  return {
    url,
    ...(username === '' ? {} : { username }),
    ...(password === '' ? {} : { password }),
  };
}

/** Returns whether a --repo value is a URL (scheme://…) rather than a local path. */
export function isRepoUrl(repo: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(repo);
}
