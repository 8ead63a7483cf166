// The commit-status client of one forge repository (docs/commit-statuses.md): posts a status on
// a commit and reads back the latest one of a context. It is the small interface the hub's
// commit-status worker talks to, and the one a `github|gitlab|gitea` receiver of a
// NotificationPolicy can post through. Every request carries the token in its header only,
// has a deadline, and goes through the API's rate-limit gate, shared by the process.
import type { DeployState } from '../../core/notify/deploy-status.js';
import type { RateLimitGates } from '../remote/rate-limit-gate.js';
import { forgeDialects, type ForgeStatus } from './forge-dialects.js';
import { defaultForgeTimeouts, forgeRequest, type ForgeTimeouts } from './forge-request.js';
import { ForgeStatusError } from './forge-status-error.js';
import type { ForgeTarget } from './forge-target.js';

export type { ForgeStatus } from './forge-dialects.js';

/** A status to post on a commit. */
export interface CommitStatusPost {
  /** The full commit id. */
  sha: string;
  /** GitHub's and Gitea's context, GitLab's name (e.g. `gitfleet/deploy`). */
  context: string;
  state: DeployState;
  /** At most 140 characters (core/notify/deploy-status.ts fitDescription). */
  description: string;
  targetUrl?: string;
}

/** Posts and reads commit statuses of one repository on one forge. */
export interface CommitStatusClient {
  readonly target: ForgeTarget;
  /** Posts the status; rejects with ForgeStatusError or RateLimited. */
  post(status: CommitStatusPost): Promise<void>;
  /** Returns the latest status of `context` on the commit as the forge shows it, or undefined for none. */
  latest(sha: string, context: string): Promise<ForgeStatus | undefined>;
}

export interface CommitStatusClientOptions {
  target: ForgeTarget;
  /** Returns the token (read from its file at each request, so a rotated Secret is taken up). */
  token: () => Promise<string>;
  /** The process's gates; the API base URL keys this forge's. */
  rateLimits?: RateLimitGates;
  timeouts?: ForgeTimeouts;
  /** Aborting it ends the requests in flight (the hub is stopping). */
  signal?: AbortSignal;
}

/** Returns the client of the target's repository. */
export function commitStatusClient(opts: CommitStatusClientOptions): CommitStatusClient {
  const { target } = opts;
  const dialect = forgeDialects[target.kind];
  const gate = opts.rateLimits?.gateFor(target.apiUrl);
  const common = async () => {
    const token = await opts.token();
    return {
      headers: dialect.authHeaders(token),
      timeouts: opts.timeouts ?? defaultForgeTimeouts(),
      secrets: [token],
      ...(gate ? { gate } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    };
  };
  return {
    target,
    post: async (status) => {
      const body = dialect.postBody(status);
      const request = await common();
      try {
        await forgeRequest({
          ...request,
          method: 'POST',
          url: target.apiUrl + dialect.postPath(target.repository, status.sha),
          body,
        });
      } catch (error) {
        if (
          error instanceof ForgeStatusError &&
          error.status !== undefined &&
          dialect.alreadyThere(error.status, error.message)
        )
          return;
        throw error;
      }
    },
    latest: async (sha, context) => {
      const url = target.apiUrl + dialect.latestPath(target.repository, sha, context);
      const answer = await forgeRequest({ ...(await common()), method: 'GET', url });
      return dialect.latestOf(answer.json, context);
    },
  };
}
