// The hub's logger, metrics and readiness, from its flags (the loop serves the metrics; --once serves none).
import type { Clock } from '../../loops/runtime/clock.js';
import type { Io } from '../io.js';
import { observability, type Observability, type ObservabilityOptions } from '../observability.js';

/** Returns the hub's logger, metrics and readiness (--log-format, --metrics-addr; none served with --once). */
export function hubObservability(
  opts: ObservabilityOptions & { once: boolean },
  io: Io,
  clock: Clock,
): Observability {
  return observability(
    {
      ...(opts.metricsAddr !== undefined && !opts.once ? { metricsAddr: opts.metricsAddr } : {}),
      ...(opts.logFormat ? { logFormat: opts.logFormat } : {}),
      ...(opts.logLevel ? { logLevel: opts.logLevel } : {}),
      ...(opts.tokenFile !== undefined ? { tokenFile: opts.tokenFile } : {}),
    },
    io,
    { speaker: { name: 'hub' }, clock },
  );
}
