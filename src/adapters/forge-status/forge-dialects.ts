// What differs between the forges' commit-status APIs: paths, auth header, state words, and
// how the latest status of a context is read back. The shapes, from each forge's API reference:
//
// | forge  | post                                   | read back                                        | auth                     |
// |--------|----------------------------------------|--------------------------------------------------|--------------------------|
// | github | POST /repos/{o}/{r}/statuses/{sha}      | GET /repos/{o}/{r}/commits/{sha}/status (latest per context, `state`) | Authorization: Bearer T |
// | gitea  | POST /repos/{o}/{r}/statuses/{sha}      | GET /repos/{o}/{r}/commits/{sha}/status (`status`, Gitea's CommitStatus) | Authorization: token T |
// | gitlab | POST /projects/{id}/statuses/{sha}      | GET /projects/{id}/repository/commits/{sha}/statuses?name=C | PRIVATE-TOKEN: T  |
//
// Bodies: GitHub and Gitea `{state, description, context, target_url}`; GitLab `{state, name,
// description, target_url}` with {id} the URL-encoded project path. States: pending, success,
// failure, and `error` for a superseded commit (GitHub, Gitea); GitLab running, success, failed,
// canceled. GitLab refuses to post a state a context already has ("Cannot transition status via
// :run from :running", a 400): the status is already there, so that answer counts as posted.
import type { DeployState } from '../../core/notify/deploy-status.js';
import type { ForgeKind } from './forge-target.js';

/** A status as a forge shows it, in gitfleet's words. */
export interface ForgeStatus {
  state: DeployState;
  description: string;
}

export interface ForgeDialect {
  authHeaders(token: string): Record<string, string>;
  postPath(repository: string, sha: string): string;
  postBody(s: { state: DeployState; description: string; context: string; targetUrl?: string }): unknown;
  latestPath(repository: string, sha: string, context: string): string;
  /** The latest status of the context in the read-back answer, or undefined. */
  latestOf(json: unknown, context: string): ForgeStatus | undefined;
  /** Whether a 4xx answer to a post means the status is already there. */
  alreadyThere(status: number, message: string): boolean;
}

const repoPath = (repository: string): string => repository.split('/').map(encodeURIComponent).join('/');

const githubStates: Record<DeployState, string> = {
  pending: 'pending',
  success: 'success',
  failure: 'failure',
  canceled: 'error',
};

const gitlabStates: Record<DeployState, string> = {
  pending: 'running',
  success: 'success',
  failure: 'failed',
  canceled: 'canceled',
};

/** Returns gitfleet's state for a forge's word (GitLab's pending and created read as pending). */
function stateOf(word: unknown): DeployState | undefined {
  switch (word) {
    case 'pending':
    case 'running':
    case 'created':
      return 'pending';
    case 'success':
      return 'success';
    case 'failure':
    case 'failed':
      return 'failure';
    case 'error':
    case 'canceled':
      return 'canceled';
    default:
      return undefined;
  }
}

function statusOf(item: unknown, stateField: 'state' | 'status'): ForgeStatus | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const fields = item as Record<string, unknown>;
  const state = stateOf(fields[stateField]);
  if (!state) return undefined;
  return { state, description: typeof fields.description === 'string' ? fields.description : '' };
}

function combinedLatest(
  json: unknown,
  context: string,
  stateField: 'state' | 'status',
): ForgeStatus | undefined {
  const statuses = (json as { statuses?: unknown } | undefined)?.statuses;
  if (!Array.isArray(statuses)) return undefined;
  const wanted = context.toLowerCase();
  // Newest first in both forges' combined status; contexts compare without case (GitHub's rule).
  const item: unknown = statuses.find(
    (s: unknown) =>
      typeof s === 'object' &&
      s !== null &&
      String((s as { context?: unknown }).context).toLowerCase() === wanted,
  );
  return statusOf(item, stateField);
}

function githubLike(
  auth: (token: string) => Record<string, string>,
  stateField: 'state' | 'status',
): ForgeDialect {
  return {
    authHeaders: auth,
    postPath: (repository, sha) => `/repos/${repoPath(repository)}/statuses/${sha}`,
    postBody: (s) => ({
      state: githubStates[s.state],
      description: s.description,
      context: s.context,
      ...(s.targetUrl ? { target_url: s.targetUrl } : {}),
    }),
    latestPath: (repository, sha) => `/repos/${repoPath(repository)}/commits/${sha}/status`,
    latestOf: (json, context) => combinedLatest(json, context, stateField),
    alreadyThere: () => false,
  };
}

const gitlab: ForgeDialect = {
  authHeaders: (token) => ({ 'private-token': token }),
  postPath: (repository, sha) => `/projects/${encodeURIComponent(repository)}/statuses/${sha}`,
  postBody: (s) => ({
    state: gitlabStates[s.state],
    name: s.context,
    description: s.description,
    ...(s.targetUrl ? { target_url: s.targetUrl } : {}),
  }),
  latestPath: (repository, sha, context) =>
    `/projects/${encodeURIComponent(repository)}/repository/commits/${sha}/statuses?name=${encodeURIComponent(context)}`,
  latestOf: (json, context) => {
    if (!Array.isArray(json)) return undefined;
    const item: unknown = json.find((s: unknown) => (s as { name?: unknown } | null)?.name === context);
    return statusOf(item, 'status');
  },
  alreadyThere: (status, message) => status === 400 && /cannot transition status/i.test(message),
};

/** The dialect of each forge. */
export const forgeDialects: Readonly<Record<ForgeKind, ForgeDialect>> = {
  github: githubLike(
    (token) => ({ authorization: `Bearer ${token}`, 'x-github-api-version': '2022-11-28' }),
    'state',
  ),
  gitea: githubLike((token) => ({ authorization: `token ${token}` }), 'status'),
  gitlab,
};
