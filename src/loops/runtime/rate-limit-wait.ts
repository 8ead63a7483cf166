// How long a Git host asked to wait, read off an error: the remote adapter's RateLimited errors
// (adapters/remote/rate-limited-error.ts) carry the time the repository's gate opens and the
// wait from when the error was made (always at once: a refused or unsent request). The loops
// wait that long instead of counting a failure: a rate limit is no outage, and nothing is sent
// to that repository before then anyway. Read by shape, as the loops do not import adapters.
import { GitfleetError } from '../../core/model/gitfleet-error.js';

/** Returns the milliseconds to wait when the error is a Git host's rate limit, else undefined. */
export function rateLimitWait(error: unknown): number | undefined {
  if (!(error instanceof GitfleetError) || error.code !== 'RateLimited') return undefined;
  const waitMs = (error as { waitMs?: unknown }).waitMs;
  return typeof waitMs === 'number' && Number.isFinite(waitMs) ? Math.max(0, waitMs) : 1000;
}
