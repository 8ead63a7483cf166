// One operation against the remote (a fetch, a push, an ls-refs) under its overall deadline
// (remote-timeouts.ts): past it, every request in flight is aborted and the operation fails as
// Unreachable, naming the remote, the operation and the setting, whatever error the aborted
// request surfaced on its way out. The operation is awaited to its end (an aborted request ends
// at once), so nothing it started still writes the mirror when the next operation begins.
import { defaultRemoteTimeouts } from './remote-timeouts.js';
import type { RemoteAccess } from './remote-access.js';
import { RemoteError } from './remote-error.js';

export type RemoteOperation = 'fetch' | 'push' | 'ls-refs';

const settings: Record<
  RemoteOperation,
  { key: 'fetchDeadlineMs' | 'pushDeadlineMs' | 'lsRefsDeadlineMs'; env: string }
> = {
  fetch: { key: 'fetchDeadlineMs', env: 'GITFLEET_GIT_FETCH_DEADLINE' },
  push: { key: 'pushDeadlineMs', env: 'GITFLEET_GIT_PUSH_DEADLINE' },
  'ls-refs': { key: 'lsRefsDeadlineMs', env: 'GITFLEET_GIT_LS_REFS_DEADLINE' },
};

/** Runs `work` with an access whose signal also fires at the operation's deadline; rejects as Unreachable past it. */
export async function withDeadline<T>(
  access: RemoteAccess,
  operation: RemoteOperation,
  work: (access: RemoteAccess) => Promise<T>,
): Promise<T> {
  const { key, env } = settings[operation];
  const ms = access.timeouts[key] ?? defaultRemoteTimeouts()[key];
  const controller = new AbortController();
  const stop = (): void => controller.abort(access.signal?.reason);
  if (access.signal?.aborted) stop();
  else access.signal?.addEventListener('abort', stop, { once: true });
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(deadlineError(access.url, operation, formatMs(ms), env));
  }, ms);
  try {
    return await work({ ...access, signal: controller.signal });
  } catch (error) {
    if (expired && access.signal?.aborted !== true)
      throw deadlineError(access.url, operation, formatMs(ms), env);
    throw error;
  } finally {
    clearTimeout(timer);
    access.signal?.removeEventListener('abort', stop);
  }
}

function deadlineError(url: string, operation: RemoteOperation, within: string, env: string): RemoteError {
  return new RemoteError(
    'Unreachable',
    `${url}: ${operation} failed: ETIMEDOUT: not done within ${within}, the deadline of one ${operation} ($${env}); the server kept the connection busy without finishing (a stuck server or proxy), tried again later`,
  );
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
