// `gitfleet hub --commit-status-token-file FILE`: the hub posts the aggregated deploy status of
// the source commit it rendered to the forge the fleet repository lives on
// (docs/commit-statuses.md). The forge, its API and the repository come from the --repo URL where
// it says them, each overridable; the token is read from its file at each request (a rotated
// Secret is taken up; a missing file is logged and retried, never a stopped pass).
import { UsageError } from '../usage-error.js';
import { readToken } from '../../adapters/remote/read-token.js';
import type { RateLimitGates } from '../../adapters/remote/rate-limit-gate.js';
import { commitStatusClient } from '../../adapters/forge-status/commit-status-client.js';
import { forgeTargetOf, type ForgeKind, type ForgeTarget } from '../../adapters/forge-status/forge-target.js';
import { ForgeStatusError } from '../../adapters/forge-status/forge-status-error.js';
import { commitStatusWorker, type CommitStatusWorker } from '../../loops/hub/commit-status-worker.js';
import { commitStatusReader } from '../../loops/hub/commit-status-reader.js';
import { commitStatusFlags, defaultCommitStatusContext } from './hub-flags.js';
import type { Clock } from '../../loops/runtime/clock.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { HubPassResult } from '../../loops/hub/hub-pass-result.js';

/** The hub's options of this file. */
export interface ForgeStatusOptions {
  /** Post the source commit's deploy status to its forge (--commit-status-token-file). */
  commitStatus?: CommitStatusOptions;
}

/** What the commit-status flags ask for. */
export interface CommitStatusOptions {
  tokenFile: string;
  target: ForgeTarget;
  context: string;
  targetUrl?: string;
}

type Values = {
  repo: string;
  'commit-status-token-file'?: string | undefined;
  'commit-status-forge'?: ForgeKind | undefined;
  'commit-status-api-url'?: string | undefined;
  'commit-status-repo'?: string | undefined;
  'commit-status-context'?: string | undefined;
  'commit-status-target-url'?: string | undefined;
};

/** Returns the commit-status options of the command line; a usage error when they name no forge or repository. */
export function commitStatusOf(values: Values): ForgeStatusOptions {
  const tokenFile = values['commit-status-token-file'];
  const others = (Object.keys(commitStatusFlags) as (keyof Values)[]).filter(
    (f) => f !== 'commit-status-token-file' && values[f] !== undefined,
  );
  if (tokenFile === undefined) {
    if (others.length > 0) throw new UsageError(`--${others[0]} needs --commit-status-token-file`);
    return {};
  }
  let target: ForgeTarget;
  try {
    target = forgeTargetOf({
      repo: values.repo,
      ...(values['commit-status-forge'] ? { kind: values['commit-status-forge'] } : {}),
      ...(values['commit-status-api-url'] ? { apiUrl: values['commit-status-api-url'] } : {}),
      ...(values['commit-status-repo'] ? { repository: values['commit-status-repo'] } : {}),
    });
  } catch (error) {
    if (error instanceof ForgeStatusError) throw new UsageError(error.message);
    throw error;
  }
  const targetUrl = values['commit-status-target-url'];
  return {
    commitStatus: {
      tokenFile,
      target,
      context: values['commit-status-context'] ?? defaultCommitStatusContext,
      ...(targetUrl ? { targetUrl } : {}),
    },
  };
}

/** What of the hub the worker reads through (hub.ts hands its parts over). */
export interface HubParts {
  setup: { repo: { gitdir: string; branchPrefix?: string } };
  clock: Clock;
  log: Logger;
  random: () => number;
  rateLimits: RateLimitGates;
  /** Aborted when the hub stops: the requests in flight end. */
  stopping: AbortController;
  statusRepositories: { gitdirOfRepository(url: string): string | undefined };
  renderRepositories: { gitdirOfRepository(url: string): string | undefined };
}

/** Returns the hub's commit-status worker when the options ask for one. */
export function hubCommitStatus(
  opts: ForgeStatusOptions & { branchPrefix?: string },
  hub: HubParts,
): CommitStatusWorker | undefined {
  if (!opts.commitStatus) return undefined;
  return startCommitStatus(opts.commitStatus, {
    gitdir: hub.setup.repo.gitdir,
    branchPrefix: opts.branchPrefix ?? hub.setup.repo.branchPrefix,
    clock: hub.clock,
    random: hub.random,
    log: hub.log,
    rateLimits: hub.rateLimits,
    signal: hub.stopping.signal,
    gitdirOfRepository: (url) =>
      hub.statusRepositories.gitdirOfRepository(url) ?? hub.renderRepositories.gitdirOfRepository(url),
  });
}

/**
 * Returns a pass reporter that also nudges the worker (when there is one) after each pass that may
 * have changed its input: a pass up to date on the bindings commit the last nudge saw changed
 * nothing the status is computed from (an up-to-date pass means the status heads it records have
 * not moved either), so the worker does not read the fleet status again. Its own retries run on
 * its timer, not on nudges.
 */
export function nudging(
  worker: CommitStatusWorker | undefined,
  report: (result: HubPassResult) => void,
): (result: HubPassResult) => void {
  if (!worker) return report;
  let seen: string | undefined;
  return (result) => {
    report(result);
    const bindings =
      result.type === 'upToDate'
        ? result.bindingsCommit
        : result.type === 'rendered'
          ? (result.bindings.commit ?? undefined)
          : undefined;
    if (result.type === 'upToDate' && bindings === seen) return;
    seen = bindings;
    worker.nudge();
  };
}

/** Returns the hub's commit-status worker over the repository the hub writes. */
export function startCommitStatus(
  opts: CommitStatusOptions,
  deps: {
    gitdir: string;
    /** Default: the FleetConfig's at the repository's HEAD (readFleetStatus). */
    branchPrefix: string | undefined;
    clock: Clock;
    random: () => number;
    log: Logger;
    rateLimits: RateLimitGates;
    signal: AbortSignal;
    gitdirOfRepository: (url: string) => string | undefined;
  },
): CommitStatusWorker {
  const token = async (): Promise<string> => {
    // With a file, readToken returns its token or throws BadToken naming the file.
    return (await readToken({ env: {}, file: opts.tokenFile })) ?? '';
  };
  const forge = commitStatusClient({
    target: opts.target,
    token,
    rateLimits: deps.rateLimits,
    signal: deps.signal,
  });
  deps.log.info(
    `commit statuses: ${opts.context} on ${opts.target.kind} ${opts.target.repository} (${opts.target.apiUrl})`,
  );
  const reads = commitStatusReader({
    gitdir: deps.gitdir,
    ...(deps.branchPrefix !== undefined ? { branchPrefix: deps.branchPrefix } : {}),
    clock: deps.clock,
    gitdirOfRepository: deps.gitdirOfRepository,
  });
  return commitStatusWorker({
    read: reads.read,
    previousOf: reads.previousOf,
    forge,
    context: opts.context,
    ...(opts.targetUrl ? { targetUrl: opts.targetUrl } : {}),
    clock: deps.clock,
    random: deps.random,
    log: deps.log,
  });
}
