// How the token reaches the remote: an Authorization header sent with every request (the
// ref advertisements and pushes gitfleet sends itself, and isomorphic-git's fetch requests),
// never in the URL. Sent up front rather than after a 401 challenge: one request less per
// exchange, and a wrong token fails at once (AuthFailed) instead of being retried.
//
//   scheme 'basic'  (default): Authorization: Basic base64(<username>:<token>), username
//                   `x-access-token` unless told otherwise. GitHub (installation and personal
//                   tokens), Gitea and GitLab (any username with a personal, project or
//                   deploy token; `oauth2` for OAuth tokens) all accept this form.
//   scheme 'bearer': Authorization: Bearer <token>, for servers and proxies that take OAuth
//                   bearer tokens on git requests (Azure DevOps, Gitea, oauth2-proxy, …).

/** How the token is presented. */
export type AuthScheme = 'basic' | 'bearer';

/** The Basic user name sent with a token unless another is configured. */
export const defaultTokenUsername = 'x-access-token';

export interface RemoteAuthOptions {
  token?: string;
  scheme?: AuthScheme;
  username?: string;
}

/** Returns the Authorization header for the token (none without a token), sent with every request. */
export function authHeaders(opts: RemoteAuthOptions): Record<string, string> {
  if (opts.token === undefined) return {};
  if (opts.scheme === 'bearer') return { Authorization: `Bearer ${opts.token}` };
  const basic = Buffer.from(`${opts.username ?? defaultTokenUsername}:${opts.token}`).toString('base64');
  return { Authorization: `Basic ${basic}` };
}
