// The one registry of rate-limit gates of a hub or agent process (adapters/remote/rate-limit-gate.ts):
// every repository object the command builds shares it, so a limit one request met holds back all
// of them. A closed gate is logged as a warning once per change of the wait, the server answering
// again as info; each rate-limit answer counts in gitfleet_git_rate_limited_total.
import { rateLimitGates, type RateLimitGates } from '../../adapters/remote/rate-limit-gate.js';
import type { Clock } from '../../loops/runtime/clock.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { Metrics } from '../../loops/runtime/metrics.js';

/** Returns the process's gates, on its clock, logging to `log` and counting in `metrics`. */
export function rateLimitGatesFor(deps: {
  clock: Pick<Clock, 'now'>;
  log: Logger;
  metrics?: Metrics | undefined;
  random?: () => number;
}): RateLimitGates {
  return rateLimitGates({
    now: () => deps.clock.now(),
    random: deps.random ?? (() => Math.random()),
    onNotice: (n) => (n.closed ? deps.log.warn(n.message) : deps.log.info(n.message)),
    onLimited: (repository) => deps.metrics?.gitRateLimited({ repository }),
  });
}
