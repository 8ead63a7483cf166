// What the loops count (docs/production.md#health-and-metrics): each loop reports a pass as
// data once it is done, and the remote repository each exchange with Git; an implementation
// turns these into Prometheus metrics (adapters/metrics/prometheus-metrics.ts), the no-op
// below drops them. The loops never time anything themselves for it: durations come from the
// pass results (their own stopwatches) and from the remote adapter.

import type {
  AgentPassReport,
  GitExchangeReport,
  HubPassReport,
  NotificationReport,
} from '../../core/model/pass-reports.js';

export type {
  AgentPassReport,
  GitExchangeReport,
  HubPassReport,
  NotificationReport,
} from '../../core/model/pass-reports.js';

/** Where the loops report what they did. */
export interface Metrics {
  hubPass(report: HubPassReport): void;
  agentPass(report: AgentPassReport): void;
  gitExchange(report: GitExchangeReport): void;
  /** One rate-limit answer (429, or 403 saying so) from the repository at that URL. */
  gitRateLimited(report: { repository: string }): void;
  /** Counts notifications (the hub's notifier); optional, so a loop without one need not say. */
  notification?(report: NotificationReport): void;
}

/** Returns metrics that drop everything (no `--metrics-addr`). */
export function noMetrics(): Metrics {
  return {
    hubPass: () => undefined,
    agentPass: () => undefined,
    gitExchange: () => undefined,
    gitRateLimited: () => undefined,
  };
}
