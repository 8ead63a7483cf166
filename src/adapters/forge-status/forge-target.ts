// Which forge, API and repository the hub posts commit statuses to: derived from the fleet
// repository's URL where the host says it (github.com, gitlab.com or a host naming gitlab or
// gitea), each part overridable by a flag (GitHub Enterprise, self-hosted GitLab, Gitea or
// Forgejo, a local --repo path):
//
// | forge  | API base (default)                                    | repository      |
// |--------|-------------------------------------------------------|-----------------|
// | github | https://api.github.com; other hosts https://HOST/api/v3 | owner/name      |
// | gitlab | https://HOST/api/v4                                   | group/…/project |
// | gitea  | https://HOST/api/v1 (Forgejo's too)                   | owner/name      |
import { isRepoUrl } from '../remote/parse-remote-url.js';
import { redactUrl } from '../remote/redact-secrets.js';
import { ForgeStatusError } from './forge-status-error.js';

export type ForgeKind = 'github' | 'gitlab' | 'gitea';

export const forgeKinds: readonly ForgeKind[] = ['github', 'gitlab', 'gitea'];

/** Where statuses go: the forge's kind, its API base URL (no trailing slash) and the repository path. */
export interface ForgeTarget {
  kind: ForgeKind;
  apiUrl: string;
  /** `owner/name`, or GitLab's `group/subgroup/project`. */
  repository: string;
}

export interface ForgeTargetOptions {
  /** The hub's --repo: a URL or a local path. */
  repo: string;
  kind?: ForgeKind;
  apiUrl?: string;
  repository?: string;
}

/** Returns the target the options and the --repo URL name; throws ForgeTargetUnknown when they name none. */
export function forgeTargetOf(opts: ForgeTargetOptions): ForgeTarget {
  const url = isRepoUrl(opts.repo) ? parseUrl(opts.repo) : undefined;
  const kind = opts.kind ?? (url ? kindOfHost(url.hostname) : undefined);
  if (kind === undefined)
    throw unknown(opts.repo, 'which forge it is (--commit-status-forge github|gitlab|gitea)');
  const repository = opts.repository ?? (url ? repositoryOf(url) : undefined);
  if (repository === undefined || !/^[^/\s]+(\/[^/\s]+)+$/.test(repository))
    throw unknown(opts.repo, 'which repository (--commit-status-repo owner/name)');
  const apiUrl = (opts.apiUrl ?? (url ? defaultApiUrl(kind, url) : undefined))?.replace(/\/+$/, '');
  if (apiUrl === undefined) throw unknown(opts.repo, "the forge's API URL (--commit-status-api-url)");
  return { kind, apiUrl, repository };
}

function parseUrl(repo: string): URL | undefined {
  try {
    return new URL(repo);
  } catch {
    return undefined;
  }
}

function kindOfHost(host: string): ForgeKind | undefined {
  const h = host.toLowerCase();
  if (h === 'github.com' || h === 'www.github.com') return 'github';
  if (h.includes('gitlab')) return 'gitlab';
  if (h.includes('gitea') || h.includes('forgejo') || h === 'codeberg.org') return 'gitea';
  return undefined;
}

function repositoryOf(url: URL): string | undefined {
  const path = decodeURIComponent(url.pathname)
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '');
  return path === '' ? undefined : path;
}

function defaultApiUrl(kind: ForgeKind, url: URL): string {
  const origin = `${url.protocol}//${url.host}`;
  if (kind === 'github')
    return /^(www\.)?github\.com$/i.test(url.hostname) ? 'https://api.github.com' : `${origin}/api/v3`;
  return kind === 'gitlab' ? `${origin}/api/v4` : `${origin}/api/v1`;
}

function unknown(repo: string, what: string): ForgeStatusError {
  return new ForgeStatusError(
    'ForgeTargetUnknown',
    `${redactUrl(repo)}: commit statuses need to know ${what}; the repository's URL does not say`,
  );
}
